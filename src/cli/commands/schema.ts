// `mcp-ld schema`: prints the effective annotated schema of a protocol version as JSON, with the seed's structure:
// for 2025-06-18 (the default) the seed + overlay; for another version its official schema annotated (carried from
// its neighbour, plus schemas/annotations/<version>.yaml). `--seed`: the version before its overlay or annotation file.
import { loadSchema, seedVersion } from '../../schema/index.js';
import { parseOptions, write, type Command, type OptionSpecs } from '../command.js';
import { protocolOption, protocolOptionSpec } from '../protocol-option.js';

const options = {
  protocol: { ...protocolOptionSpec, description: 'the version printed (default 2025-06-18)' },
  'json-rpc': { type: 'boolean', description: 'print the JSON-RPC schema instead' },
  seed: { type: 'boolean', description: 'print the version before its overlay (2025-06-18) or annotation file' },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const schemaCommand: Command = {
  name: 'schema',
  summary: 'print the effective annotated MCP schema of a protocol version (default 2025-06-18) as JSON',
  usage: 'mcp-ld schema [--protocol VERSION] [--json-rpc] [--seed]',
  options,
  examples: ['mcp-ld schema --protocol 2026-07-28 > schema-2026-07-28.json'],
  async run(args, io) {
    const { values } = parseOptions(args, options);
    const index = loadSchema({ protocol: protocolOption(values.protocol) ?? seedVersion });
    const documents = values.seed ? index.seed : index.documents;
    await write(io.stdout, JSON.stringify(values['json-rpc'] ? documents['json-rpc'] : documents.mcp, null, 2) + '\n');
    return 0;
  },
};
