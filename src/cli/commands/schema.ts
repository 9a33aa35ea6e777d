// `mcp-ld schema`: prints the effective annotated schema (seed + overlay) as JSON, with the seed's structure.
import { loadSchema } from '../../schema/index.js';
import { parseOptions, write, type Command } from '../command.js';

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'print the effective annotated MCP schema (seed + overlay) as JSON',
  usage: 'mcp-ld schema [--json-rpc] [--seed]',
  async run(args, io) {
    const { values } = parseOptions(args, { 'json-rpc': { type: 'boolean' }, seed: { type: 'boolean' } });
    const index = loadSchema();
    const documents = values.seed ? index.seed : index.documents;
    await write(io.stdout, JSON.stringify(values['json-rpc'] ? documents['json-rpc'] : documents.mcp, null, 2) + '\n');
    return 0;
  },
};
