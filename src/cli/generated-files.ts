// What `mcp-ld contexts` and `mcp-ld ontology` share about the generated, committed files they write and check:
// paths shown as the user would type them, and one report of the files that drifted from the schema.
import path from 'node:path';
import { write } from './command.js';

/** A path as the user would type it: relative to the working directory when inside it. */
export function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

const problems = {
  differs: 'differs from what the schema generates',
  missing: 'is missing',
  unexpected: 'is not generated from the schema (a stale or foreign file)',
} as const;

interface Drift {
  /** Relative to the checked directory. */
  path: string;
  problem: keyof typeof problems;
}

/** Names every drifted file on `stderr`, then the command that regenerates them; the exit code of a check. */
export async function reportDrift(
  stderr: NodeJS.WritableStream,
  command: string,
  dir: string,
  drift: Drift[],
  regenerate: string,
): Promise<number> {
  if (drift.length === 0) return 0;
  for (const { path: file, problem } of drift)
    await write(stderr, `mcp-ld ${command}: ${shown(path.join(dir, file))} ${problems[problem]}\n`);
  await write(stderr, `mcp-ld ${command}: ${drift.length} file(s) out of date; run \`${regenerate}\`\n`);
  return 1;
}
