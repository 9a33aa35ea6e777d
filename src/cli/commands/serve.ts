// `mcp-ld serve`: runs the HTTP service until it is stopped (SIGINT/SIGTERM close it cleanly).
import { readServiceConfig, serviceVariables, storeVariables } from '../../core/config.js';
import { parseOptions, write, type Command, type OptionSpecs } from '../command.js';
import { storeOptions } from '../store-options.js';

const options = {
  port: { type: 'string', value: 'PORT', env: 'MCPLD_PORT' },
  host: { type: 'string', value: 'HOST', env: 'MCPLD_HOST' },
  ...storeOptions,
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the HTTP service (embedded store by default)',
  usage: 'mcp-ld serve [--port 8080] [--host 127.0.0.1] [--data DIR | --store URL]',
  options,
  environment: [...serviceVariables, ...storeVariables],
  examples: ['mcp-ld serve --data ./graph', 'MCPLD_WRITE_TOKEN=s3cret mcp-ld serve --port 8081'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const config = readServiceConfig(values);
    const { startServer } = await import('../../api/server.js'); // fastify only for the commands that serve
    const server = await startServer(config);
    const address = server.addresses()[0];
    if (address && typeof address !== 'string') {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      await write(io.stderr, `mcp-ld listening on http://${host}:${address.port}\n`);
    }
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        server.close().then(
          () => resolve(),
          () => resolve(),
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};
