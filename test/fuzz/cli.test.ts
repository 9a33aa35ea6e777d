// Fuzz: `mcp-ld convert` and `mcp-ld ingest` as processes, many generated lines per process (JSONL behind a valid
// first line). Invariants: exit 0 or 1 (never 70, never a stack trace), every line that must be refused is reported,
// exactly the lines parseInput refuses in process are, and what convert writes is N-Quads.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { Parser } from 'n3';
import { parseInput } from '../../src/lift/input.js';
import { runCli } from '../helpers/run-cli.js';
import { expectation, fuzzLines, isBlankLine, linesBody, type FuzzInput } from './inputs.js';
import { check } from './settings.js';
import { shownFailures } from '../../src/cli/failed-lines.js';

/** The environment of a CLI run without any store configuration of the developer's own. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('MCPLD_')) delete env[name];
  return env;
}

/** The line numbers a command reported as failed (`line N: …`, after an optional `FILE: `). */
function reportedLines(stderr: string, prefix: string): number[] {
  return [...stderr.matchAll(new RegExp(`^${prefix}line (\\d+): `, 'gm'))].map((m) => Number(m[1]));
}

/** The refused lines are reported one by one up to shownFailures, and the rest counted on one line. */
function assertReported(stderr: string, prefix: string, refused: number[], command: string): void {
  assert.deepEqual(
    reportedLines(stderr, prefix),
    refused.slice(0, shownFailures),
    `${command} reports the first refused lines`,
  );
  const rest = refused.length - shownFailures;
  if (rest > 0)
    assert.match(
      stderr,
      new RegExp(`^… and ${rest} more (malformed|failed) lines?$`, 'm'),
      `${command} counts the other refused lines`,
    );
  else assert.doesNotMatch(stderr, /^… and /m);
}

function assertCleanExit(result: { code: number | null; stderr: string }, command: string): void {
  assert.ok(
    result.code === 0 || result.code === 1,
    `${command} exits 0 or 1, not ${result.code}: ${result.stderr.slice(-2000)}`,
  );
  assert.doesNotMatch(result.stderr, /^\s+at .*[:(]\d+:\d+\)?$/m, `${command} prints no stack trace`);
  assert.doesNotMatch(
    result.stderr,
    /internal error|TypeError|RangeError|SyntaxError|ReferenceError/,
    `${command} meets no bug`,
  );
}

describe('fuzz: mcp-ld convert and ingest as processes', function () {
  this.timeout(1_800_000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-fuzz-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exit 0 or 1, report every refused line (the lines parseInput refuses), and write N-Quads', async () => {
    let run = 0;
    const property = fc.asyncProperty(fuzzLines(40), async (inputs: FuzzInput[]) => {
      const file = path.join(dir, `run-${++run}.jsonl`);
      const body = linesBody(inputs);
      writeFileSync(file, body);
      // Line 1 is the valid first line; input i is on line i + 2.
      const mustRefuse = inputs.flatMap((input, i) =>
        expectation(input, 'line').refused && !isBlankLine(input.bytes) ? [i + 2] : [],
      );
      const refusedInProcess = [...parseInput(body)].filter((item) => item.error).map((item) => item.line);
      for (const line of mustRefuse) assert.ok(refusedInProcess.includes(line), `line ${line} is refused in process`);

      const converted = await runCli(['convert', file, '--session', 'fuzz'], { env: cleanEnv() });
      assertCleanExit(converted, 'convert');
      assertReported(converted.stderr, '', refusedInProcess, 'convert');
      assert.equal(converted.code, refusedInProcess.length > 0 ? 1 : 0);
      new Parser({ format: 'N-Quads' }).parse(converted.stdout);

      const ingested = await runCli(['ingest', file, '--data', path.join(dir, 'data'), '--session', 'fuzz'], {
        env: cleanEnv(),
      });
      assertCleanExit(ingested, 'ingest');
      assertReported(ingested.stderr, `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, refusedInProcess, 'ingest');
      assert.match(ingested.stderr, /stored \d+ quads in \d+ batch/);
    });
    await check('cli convert + ingest', property, 6);
  });
});
