// The converter benchmark (DESIGN.md "Performance budgets": lifting at least 10x jsonld.js toRDF, the whole CLI
// process against its loop alone). In one run: builds a workload from the fixtures, times the fast engine, the
// reference engine and the baseline (jsonld.js toRDF with OGC's flat context) each in a child process of its own,
// times the whole `mcp-ld convert` process, and what bounds it from below (start-up, and a process that reads the
// input and writes the same N-Quads without lifting); it prints one line per figure with the baseline beside it.
// Usage: npm run bench:lift [-- --messages N --warmup N --reference-messages N --keep]
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../src/core/paths.js';
import { figureLine, formatRatio, formatValue, type Figure } from './figures.js';
import type { EngineName, LiftEngineResult, LoopTotals } from './lift-engine.js';
import { liftBenchUsage, LiftBenchUsageError, readLiftBenchOptions, type LiftBenchOptions } from './lift-options.js';
import { buildLiftWorkload } from './lift-workload.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const engineScript = path.join(here, 'lift-engine.js');
const floorScript = path.join(here, 'lift-floor.js');
const peakRssHook = pathToFileURL(path.join(here, 'peak-rss-hook.js')).href;
const cliScript = path.join(packageRoot, 'bin', 'mcp-ld');

/** The budget: the whole CLI process at least this many times faster than the jsonld.js toRDF loop alone. */
const liftBudget = 10;

const baselineName = 'jsonld.js toRDF + OGC context';

function progress(text: string): void {
  process.stderr.write(`[bench:lift] ${text}\n`);
}

function say(line: string): void {
  process.stdout.write(line + '\n');
}

async function runEngine(
  engine: EngineName,
  file: string,
  warmup: number,
  limit?: number,
  checkpoint?: number,
): Promise<LiftEngineResult> {
  const args = [engineScript, engine, file, String(warmup), limit === undefined ? '-' : String(limit)];
  if (checkpoint !== undefined) args.push(String(checkpoint));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const code = await new Promise<number | string>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exit, signal) => resolve(exit ?? signal ?? 'unknown'));
  });
  if (code !== 0) throw new Error(`the ${engine} engine's process exited with ${code}`);
  return JSON.parse(stdout.trim().split('\n').pop()!) as LiftEngineResult;
}

interface CliRun {
  seconds: number;
  exit: number | string;
  stderr: string;
  peakRssMiB?: number;
}

/** Times `node ARGS > OUTPUT` from spawn to exit (its peak RSS comes from a preloaded hook). */
async function runProcess(args: string[], output = '/dev/null'): Promise<CliRun> {
  const stdout = openSync(output, 'w');
  try {
    const start = performance.now();
    const child = spawn(process.execPath, ['--import', peakRssHook, ...args], {
      stdio: ['ignore', stdout, 'pipe', 'pipe'],
    });
    let stderr = '';
    let rss = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (chunk: string) => (rss += chunk));
    let seconds = 0;
    const exited = new Promise<number | string>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        seconds = (performance.now() - start) / 1000;
        resolve(code ?? signal ?? 'unknown');
      });
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    const exit = await exited;
    await closed; // its stderr and fd 3 read to the end
    const run: CliRun = { seconds, exit, stderr };
    const line = rss.trim().split('\n').pop();
    if (line) run.peakRssMiB = (JSON.parse(line) as { maxRssKiB: number }).maxRssKiB / 1024;
    return run;
  } finally {
    closeSync(stdout);
  }
}

/** The shortest wall time of `runs` runs of a process. */
async function bestOf(runs: number, run: () => Promise<CliRun>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, (await run()).seconds);
  return best;
}

/** Times `mcp-ld convert FILE --quiet > OUTPUT`. */
function runCli(file: string, output?: string): Promise<CliRun> {
  return runProcess([cliScript, 'convert', file, '--quiet'], output);
}

function throughput(name: string, totals: LoopTotals, what: 'messages' | 'quads'): Figure {
  return { name, value: totals[what] / totals.seconds, unit: `${what}/s` };
}

function rss(name: string, result: { peakRssMiB: number }): Figure {
  return { name: `${name} peak RSS`, value: result.peakRssMiB, unit: 'MiB' };
}

function failureLines(name: string, result: LiftEngineResult): string[] {
  const failed = result.messages - result.lifted;
  const lines = [
    `${name} failures: ${failed} of ${result.messages} messages${failed > 0 ? ' (not counted in its quads)' : ''}`,
  ];
  for (const failure of result.failures) lines.push(`  ${failure.count} × ${failure.kind}: ${failure.error}`);
  return lines;
}

function machineLine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `machine: ${os.availableParallelism()} cores (${model}), node ${process.version}, ${os.platform()} ${os.arch()}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load average ${load}`;
}

async function main(options: LiftBenchOptions): Promise<void> {
  const began = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-ld-bench-lift-'));
  try {
    const workload = buildLiftWorkload(dir, options.messages);
    const size = statSync(workload.file).size / 2 ** 20;
    say(
      `lift workload: ${workload.messages} messages (${workload.repetitions} repetitions of ${workload.traffic} capture + ${workload.ogcExamples} OGC example messages, ${workload.sessions} sessions), ${size.toFixed(1)} MiB JSONL${options.keep ? ` at ${workload.file}` : ''}`,
    );
    say(machineLine());
    say(
      `timed: the conversion loop of each engine after ${options.warmup} warm-up messages, each engine in its own process; ratio: times better than the baseline (throughput ours/baseline, time and memory baseline/ours)`,
    );

    const referenceLimit =
      options.referenceMessages !== undefined && options.referenceMessages < workload.messages
        ? options.referenceMessages
        : undefined;

    progress(`baseline (${baselineName}) on ${workload.messages} messages…`);
    const baseline = await runEngine('baseline', workload.file, options.warmup, undefined, referenceLimit);
    const base = (what: 'messages' | 'quads', totals: LoopTotals = baseline) => throughput(baselineName, totals, what);

    progress('fast engine…');
    const fast = await runEngine('fast', workload.file, options.warmup);
    say(figureLine(throughput('lift fast', fast, 'messages'), base('messages'), 'higher'));
    say(figureLine(throughput('lift fast', fast, 'quads'), base('quads'), 'higher'));
    say(figureLine(rss('lift fast', fast), rss(baselineName, baseline), 'lower'));

    progress('fast engine, N-Quads text path…');
    const text = await runEngine('fast-nquads', workload.file, options.warmup);
    say(figureLine(throughput('lift fast (N-Quads text)', text, 'messages'), base('messages'), 'higher'));
    say(figureLine(throughput('lift fast (N-Quads text)', text, 'quads'), base('quads'), 'higher'));

    progress('CLI process (mcp-ld convert --quiet > /dev/null)…');
    const cli = await runCli(workload.file);
    const cliName = 'lift CLI process (mcp-ld convert FILE --quiet > /dev/null, wall time from spawn to exit)';
    const loopName = `${baselineName}, loop alone`;
    const cliTime: Figure = { name: cliName, value: cli.seconds, unit: 's' };
    const loopTime: Figure = { name: loopName, value: baseline.seconds, unit: 's' };
    const ratio = baseline.seconds / cli.seconds;
    say(
      `${figureLine(cliTime, loopTime, 'lower')}; budget >= ${liftBudget}x: ${ratio >= liftBudget ? 'met' : `NOT met (${formatRatio(ratio)})`}`,
    );
    say(
      figureLine(
        { name: 'lift CLI process', value: workload.messages / cli.seconds, unit: 'messages/s' },
        { name: loopName, value: baseline.messages / baseline.seconds, unit: 'messages/s' },
        'higher',
      ),
    );
    if (cli.peakRssMiB !== undefined)
      say(
        figureLine(
          { name: 'lift CLI process peak RSS', value: cli.peakRssMiB, unit: 'MiB' },
          rss(baselineName, baseline),
          'lower',
        ),
      );
    progress('floor (read + parse the JSONL, write the same N-Quads, no lifting)…');
    const nquadsFile = path.join(dir, 'workload.nq');
    await runCli(workload.file, nquadsFile); // untimed: the bytes the floor writes
    const floor = await runProcess([floorScript, workload.file, nquadsFile]);
    const floorName = `lift floor (a process that reads and parses the JSONL and writes the same ${formatValue(statSync(nquadsFile).size / 2 ** 20, 'MiB')} MiB of N-Quads, lifting nothing)`;
    const budgetSeconds = baseline.seconds / liftBudget;
    // What any `mcp-ld convert` pays before its first message: a bare node process, then our modules and schema.
    progress('start-up (mcp-ld convert of one message, and node -e 0; best of 5 each)…');
    const oneMessage = path.join(dir, 'one-message.jsonl');
    writeFileSync(oneMessage, readFileSync(workload.file, 'utf8').split('\n', 1)[0] + '\n');
    const startup = await bestOf(5, () => runCli(oneMessage));
    const bareNode = await bestOf(5, () => runProcess(['-e', '0']));
    say(
      figureLine(
        { name: 'lift CLI start-up (mcp-ld convert of one message, best of 5)', value: startup, unit: 's' },
        { name: 'node -e 0, best of 5', value: bareNode, unit: 's' },
        'lower',
      ),
    );
    const leftForLifting = budgetSeconds - floor.seconds - (startup - bareNode);
    say(
      `${figureLine({ name: floorName, value: floor.seconds, unit: 's' }, loopTime, 'lower')}; ` +
        `the ${liftBudget}x budget (${formatValue(budgetSeconds, 's')} s) less the floor and our start-up beyond node's own (${formatValue(startup - bareNode, 's')} s) ` +
        (leftForLifting > 0
          ? `leaves ${(leftForLifting * 1000).toFixed(0)} ms to lift ${workload.messages} messages (${formatValue(workload.messages / leftForLifting, 'messages/s')} messages/s)`
          : `leaves nothing to lift ${workload.messages} messages with: out of reach for this much output on this machine`),
    );
    if (cli.exit !== 0)
      say(
        `lift CLI process: exit status ${cli.exit}${cli.stderr ? `; stderr: ${cli.stderr.trim().split('\n').slice(0, 5).join(' | ')}` : ''}`,
      );

    const referenceMessages = referenceLimit ?? workload.messages;
    progress(`reference engine on ${referenceMessages} messages…`);
    const reference = await runEngine('reference', workload.file, options.warmup, referenceLimit);
    const sameMessages = referenceLimit !== undefined ? baseline.checkpoint! : baseline;
    const on = referenceLimit !== undefined ? ` (first ${referenceLimit} messages)` : '';
    say(figureLine(throughput(`lift reference${on}`, reference, 'messages'), base('messages', sameMessages), 'higher'));
    say(figureLine(throughput(`lift reference${on}`, reference, 'quads'), base('quads', sameMessages), 'higher'));
    say(figureLine(rss(`lift reference${on}`, reference), rss(baselineName, baseline), 'lower'));

    say(
      `lift validation: ${fast.invalid} of ${fast.messages} messages invalid (fast engine), ${reference.invalid} of ${reference.lifted} lifted (reference engine)`,
    );
    for (const [name, result] of [
      ['lift fast', fast],
      ['lift reference', reference],
      [baselineName, baseline],
    ] as const) {
      if (result.unparsed > 0) say(`${name}: ${result.unparsed} workload lines refused by parseInput`);
      for (const line of failureLines(name, result)) say(line);
    }
    progress(`done in ${formatValue((performance.now() - began) / 1000, 's')} s`);
  } finally {
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main(readLiftBenchOptions());
} catch (error) {
  if (!(error instanceof LiftBenchUsageError)) throw error;
  process.stderr.write(`bench:lift: ${error.message}\nusage: ${liftBenchUsage}\n`);
  process.exitCode = 2;
}
