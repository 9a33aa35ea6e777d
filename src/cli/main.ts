// The `mcp-ld` command line: dispatches to one module per command and translates errors once — a usage error
// exits 2 with the usage, a core error (McpLdError) exits 1 with its title and detail, on stderr.
import { isMcpLdError } from '../core/problem.js';
import { ConfigError } from '../core/config.js';
import { UsageError, write, type Command, type CommandIo } from './command.js';
import { lintCommand } from './commands/lint.js';
import { schemaCommand } from './commands/schema.js';
import { serveCommand } from './commands/serve.js';
import { convertCommand } from './commands/convert.js';
import { lowerCommand } from './commands/lower.js';
import { ingestCommand } from './commands/ingest.js';
import { queryCommand } from './commands/query.js';
import { tapCommand } from './commands/tap.js';
import { proxyCommand } from './commands/proxy.js';
import { contextsCommand } from './commands/contexts.js';
import { ontologyCommand } from './commands/ontology.js';

export const commands: Command[] = [convertCommand, lowerCommand, contextsCommand, ontologyCommand, schemaCommand, lintCommand, serveCommand, ingestCommand, queryCommand, tapCommand, proxyCommand];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'mcp-ld: a JSON-LD / RDF bridge for the Model Context Protocol',
    '',
    'usage: mcp-ld <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "'mcp-ld help <command>' shows a command's usage.",
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const command = commands.find((c) => c.name === args[0]);
    await write(name === undefined ? io.stderr : io.stdout, command ? `usage: ${command.usage}\n` : overview());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    await write(io.stderr, `mcp-ld: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    await write(io.stdout, `usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      await write(io.stderr, `mcp-ld ${name}: ${error.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      await write(io.stderr, `mcp-ld ${name}: ${error.message}\n`);
      return 2;
    }
    if (isMcpLdError(error)) {
      const where = error.line !== undefined ? ` (line ${error.line})` : error.pointer ? ` (at ${error.pointer})` : '';
      await write(io.stderr, `mcp-ld ${name}: ${error.title}: ${error.detail}${where}\n`);
      return 1;
    }
    throw error;
  }
}
