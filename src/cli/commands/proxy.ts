// `mcp-ld proxy --target URL [--port P] [--host H] [--session-idle S] [sink] [--capture FILE]`: a recording reverse
// proxy for MCP over HTTP (HTTP+SSE, Streamable HTTP). Clients use the proxy's address with the target's path.
import type { AddressInfo } from 'node:net';
import { createRecordingProxy } from '../../tap/http-proxy.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { openRecording, recordingOptions, recordingVariables } from '../recording.js';

const options = {
  target: { type: 'string', value: 'URL', description: 'the MCP server to forward to (http://)' },
  port: { type: 'string', default: '8081', value: 'PORT', description: 'the port the proxy listens on' },
  host: { type: 'string', default: '127.0.0.1', value: 'HOST', description: 'the address the proxy listens on' },
  'session-idle': {
    type: 'string',
    default: '60',
    value: 'SECONDS',
    description: "how long a client's session outlives its last connection, in seconds (sessions no transport names)",
  },
  ...recordingOptions,
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const proxyCommand: Command = {
  name: 'proxy',
  summary: 'record an MCP server over HTTP (HTTP+SSE, Streamable HTTP) through a transparent reverse proxy',
  usage:
    'mcp-ld proxy --target URL [--port 8081] [--host 127.0.0.1] [--session-idle 60] [--data DIR | --store URL | --bridge http://HOST:PORT] [--capture FILE.jsonl] [--server NAME] [--spool DIR]',
  options,
  environment: recordingVariables,
  examples: ['mcp-ld proxy --target http://127.0.0.1:3001 --data ./graph'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    if (!values.target) throw new UsageError('--target names the MCP server, e.g. --target http://127.0.0.1:3001');
    let target: URL;
    try {
      target = new URL(values.target);
    } catch {
      throw new UsageError(`--target is not a URL: ${values.target}`);
    }
    if (target.protocol !== 'http:') throw new UsageError('--target must be an http:// URL');
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a port number, not "${values.port}"`);
    const idle = Number(values['session-idle']);
    if (!/^\d+(\.\d+)?$/.test(values['session-idle']) || !Number.isFinite(idle))
      throw new UsageError(`--session-idle must be a number of seconds, not "${values['session-idle']}"`);
    const say = (text: string) => void write(io.stderr, `mcp-ld proxy: ${text}\n`).catch(() => {});
    // A server that does not name itself is named by the URL it is reached at.
    const recording = await openRecording(
      values,
      { fallbackServer: `${target.origin}${target.pathname.replace(/\/$/, '')}` },
      say,
    );
    const server = createRecordingProxy({ target, recorder: recording.recorder, sessionIdleMs: idle * 1000 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, values.host, resolve);
    });
    const address = server.address() as AddressInfo;
    say(`recording ${target.origin} at http://${values.host}:${address.port}`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        server.closeAllConnections();
        server.close(() => resolve());
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await recording.finish();
    return 0;
  },
};
