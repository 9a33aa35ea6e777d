// The `mcp-ld` command line: dispatches to one module per command and translates errors once — a usage error
// exits 2 with the usage, a core error (McpLdError) exits 1 with its title and detail, on stderr.
import { isMcpLdError } from '../core/problem.js';
import { nearest, UsageError, write, type Command, type CommandIo } from './command.js';

/**
 * The commands in the order `mcp-ld help` lists them, each loaded only when it runs: a command's dependencies
 * (the reference JSON-LD engine, the HTTP server, the SPARQL parser) cost start-up time the others should not pay.
 */
const commandLoaders: Record<string, () => Promise<Command>> = {
  convert: async () => (await import('./commands/convert.js')).convertCommand,
  lower: async () => (await import('./commands/lower.js')).lowerCommand,
  contexts: async () => (await import('./commands/contexts.js')).contextsCommand,
  ontology: async () => (await import('./commands/ontology.js')).ontologyCommand,
  schema: async () => (await import('./commands/schema.js')).schemaCommand,
  lint: async () => (await import('./commands/lint.js')).lintCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  ingest: async () => (await import('./commands/ingest.js')).ingestCommand,
  query: async () => (await import('./commands/query.js')).queryCommand,
  repair: async () => (await import('./commands/repair.js')).repairCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  own: async () => (await import('./commands/own.js')).ownCommand,
  tap: async () => (await import('./commands/tap.js')).tapCommand,
  proxy: async () => (await import('./commands/proxy.js')).proxyCommand,
};

function loadCommand(name: string | undefined): Promise<Command> | undefined {
  return name !== undefined && Object.hasOwn(commandLoaders, name) ? commandLoaders[name]!() : undefined;
}

export function loadCommands(): Promise<Command[]> {
  return Promise.all(Object.values(commandLoaders).map((load) => load()));
}

async function overview(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'mcp-ld: a JSON-LD / RDF bridge for the Model Context Protocol',
    '',
    'usage: mcp-ld <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "'mcp-ld help <command>' shows a command's usage; 'mcp-ld --version' the version.",
    '',
  ].join('\n');
}

/** A command's help, with its options and examples (help.ts loaded only when asked for). */
async function helpOf(command: Command): Promise<string> {
  return (await import('./help.js')).commandHelp(command);
}

/** "unknown command "x"", with the command probably meant. */
function unknownCommand(name: string): string {
  const meant = nearest(name, Object.keys(commandLoaders));
  return `mcp-ld: unknown command "${name}"${meant ? `; did you mean ${meant}?` : ''}\n`;
}

/** `mcp-ld --version`: the package's version and the protocol versions it knows. */
async function version(): Promise<string> {
  const { packageRoot } = await import('../core/paths.js');
  const { readFileSync } = await import('node:fs');
  const { protocolVersions } = await import('../schema/versions.js');
  const { version } = JSON.parse(readFileSync(`${packageRoot}/package.json`, 'utf8')) as { version: string };
  return `mcp-ld ${version} (MCP protocol versions ${protocolVersions.join(', ')})\n`;
}

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-V') {
    await write(io.stdout, await version());
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const command = await loadCommand(args[0]);
    if (!command && args[0] !== undefined) {
      await write(io.stderr, `${unknownCommand(args[0])}\n${await overview()}`);
      return 2;
    }
    await write(name === undefined ? io.stderr : io.stdout, command ? await helpOf(command) : await overview());
    return name === undefined ? 2 : 0;
  }
  const command = await loadCommand(name);
  if (!command) {
    await write(io.stderr, `${unknownCommand(name)}\n${await overview()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    await write(io.stdout, await helpOf(command));
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      await write(
        io.stderr,
        `mcp-ld ${name}: ${error.message}\nusage: ${command.usage}\n'mcp-ld ${name} --help' lists its options\n`,
      );
      return 2;
    }
    // Loaded only when a command failed: the commands that read no configuration (convert, lower …) never load it.
    if (error instanceof (await import('../core/config.js')).ConfigError) {
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
