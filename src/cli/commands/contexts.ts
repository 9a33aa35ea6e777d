// `mcp-ld contexts`: generates the JSON-LD contexts from the effective schema into contexts/ (or --out DIR), one
// line per file written; `--check` writes nothing and exits 1 naming every file that differs (for CI).
import path from 'node:path';
import { contextsDir } from '../../core/paths.js';
import { loadSchema } from '../../schema/index.js';
import { checkContexts, writeContexts } from '../../context/index.js';
import { parseOptions, write, type Command } from '../command.js';
import { reportDrift, shown } from '../generated-files.js';

export const contextsCommand: Command = {
  name: 'contexts',
  summary: 'generate the JSON-LD contexts from the schema (--check: verify them)',
  usage: 'mcp-ld contexts [--out DIR] [--check]',
  async run(args, io) {
    const { values } = parseOptions(args, { out: { type: 'string' }, check: { type: 'boolean' } });
    const dir = path.resolve(values.out ?? contextsDir);
    const index = loadSchema();
    if (values.check) return reportDrift(io.stderr, 'contexts', dir, checkContexts(dir, index), `mcp-ld contexts${values.out ? ` --out ${values.out}` : ''}`);
    const { written, removed } = writeContexts(dir, index);
    for (const file of written) await write(io.stdout, `${shown(file)}\n`);
    for (const file of removed) await write(io.stdout, `removed ${shown(file)}\n`);
    return 0;
  },
};
