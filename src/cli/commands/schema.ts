// `mcp-ld schema`: prints the effective annotated schema of a protocol version as JSON, with the seed's structure:
// for 2025-06-18 (the default) the seed + overlay; for another version its official schema annotated (carried from
// its neighbour, plus schemas/annotations/<version>.yaml). `--seed`: the version before its overlay or annotation file.
import { loadSchema, seedVersion } from '../../schema/index.js';
import { parseOptions, write, type Command } from '../command.js';
import { protocolOption } from '../protocol-option.js';

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'print the effective annotated MCP schema of a protocol version (default 2025-06-18) as JSON',
  usage: 'mcp-ld schema [--protocol VERSION] [--json-rpc] [--seed]',
  async run(args, io) {
    const { values } = parseOptions(args, { 'json-rpc': { type: 'boolean' }, seed: { type: 'boolean' }, protocol: { type: 'string' } });
    const index = loadSchema({ protocol: protocolOption(values.protocol) ?? seedVersion });
    const documents = values.seed ? index.seed : index.documents;
    await write(io.stdout, JSON.stringify(values['json-rpc'] ? documents['json-rpc'] : documents.mcp, null, 2) + '\n');
    return 0;
  },
};
