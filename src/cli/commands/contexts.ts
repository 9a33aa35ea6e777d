// `mcp-ld contexts`: generates the JSON-LD contexts from the effective schema into contexts/ (or --out DIR), one
// line per file written; `--check` writes nothing and exits 1 naming every file that differs (for CI).
import path from 'node:path';
import { contextsDir } from '../../core/paths.js';
import { loadSchema } from '../../schema/index.js';
import { checkContexts, writeContexts } from '../../context/index.js';
import { parseOptions, write, type Command } from '../command.js';

/** A path as the user would type it: relative to the working directory when inside it. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

const problems = {
  differs: 'differs from what the schema generates',
  missing: 'is missing',
  unexpected: 'is not generated from the schema (a stale or foreign file)',
} as const;

export const contextsCommand: Command = {
  name: 'contexts',
  summary: 'generate the JSON-LD contexts from the schema (--check: verify them)',
  usage: 'mcp-ld contexts [--out DIR] [--check]',
  async run(args, io) {
    const { values } = parseOptions(args, { out: { type: 'string' }, check: { type: 'boolean' } });
    const dir = path.resolve(values.out ?? contextsDir);
    const index = loadSchema();
    if (values.check) {
      const drift = checkContexts(dir, index);
      if (drift.length === 0) return 0;
      for (const { path: file, problem } of drift) {
        await write(io.stderr, `mcp-ld contexts: ${shown(path.join(dir, file))} ${problems[problem]}\n`);
      }
      await write(io.stderr, `mcp-ld contexts: ${drift.length} file(s) out of date; run \`mcp-ld contexts${values.out ? ` --out ${values.out}` : ''}\`\n`);
      return 1;
    }
    const { written, removed } = writeContexts(dir, index);
    for (const file of written) await write(io.stdout, `${shown(file)}\n`);
    for (const file of removed) await write(io.stdout, `removed ${shown(file)}\n`);
    return 0;
  },
};
