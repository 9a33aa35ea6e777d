// The store benchmark's query comparison (issue 20: every named query under 100 ms on 1M quads; DESIGN.md: at least 10x
// faster than Comunica over an N3.Store): runs bench/store-engine.js once per engine on the same N-Quads file, each
// in a process of its own (own peak RSS), with a hard per-query cap on the baseline (a query that blocks Comunica's
// event loop past the cap gets its process killed, and the rest run in a new one), and formats the figures.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NamedQueries } from '../src/query/index.js';
import { formatRatio } from './figures.js';
import type { EngineReport, QueryCase } from './store-engine.js';

const engineScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'store-engine.js');
export const queryBudgetMs = 100;
export const queryBudgetRatio = 10;

/** mcp-ld's embedded store, the Comunica baseline, or mcp-ld's remote store on an endpoint loaded beforehand. */
type EngineName = 'mcp-ld' | 'comunica' | 'remote';

export interface QueryTiming {
  name: string;
  /** Median of the timed runs, in ms; undefined when no run finished within the cap. */
  medianMs?: number;
  runs: number;
  rows?: number;
  capped: boolean;
  error?: string;
  /** A query kept per session, as `mcp-ld serve` answers it: median of its timed runs, and its rows. */
  kept?: { medianMs: number; runs: number; rows: number };
}

export interface EngineRun {
  engine: EngineName;
  loadSeconds: number;
  quads: number;
  rssAfterLoadMiB: number;
  /** Peak RSS of the engine's process(es): the largest, when it had to be restarted. */
  peakRssMiB: number;
  restarts: number;
  queries: Map<string, QueryTiming>;
}

interface EngineOptions {
  runs: number;
  capMs: number;
  progress: (text: string) => void;
  /** The remote engine's endpoint and credentials. */
  store?: { url: string; user: string; password: string };
}

/** Every named query with its default parameters; a required one (the session of session-timeline) from `required`. */
export function namedQueryCases(required: Record<string, string>): QueryCase[] {
  return new NamedQueries().list().map((query) => {
    const values: Record<string, string> = {};
    for (const parameter of query.parameters) {
      if (parameter.required && parameter.default === undefined) {
        const value = required[parameter.name];
        if (value === undefined)
          throw new Error(`named query ${query.name}: no value for its required parameter ${parameter.name}`);
        values[parameter.name] = value;
      }
    }
    return { name: query.name, values };
  });
}

/** Milliseconds as the query lines give them: one decimal, none from 1,000 ms on. */
export function ms(value: number): string {
  return value.toFixed(value >= 1000 ? 0 : 1);
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface ChildOutcome {
  reports: EngineReport[];
  /** The query the child was killed in (it ran past the cap and did not give its event loop back). */
  killedIn?: string;
  exitCode: number | null;
  stderr: string;
}

function runChild(
  engine: EngineName,
  nquadsFile: string,
  cases: QueryCase[],
  options: EngineOptions,
): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const args = [
      ...(engine === 'comunica' ? ['--max-old-space-size=12288'] : []),
      engineScript,
      '--engine',
      engine,
      ...(engine === 'remote' ? ['--store', options.store!.url] : ['--nquads', nquadsFile]),
      '--queries',
      JSON.stringify(cases),
      '--runs',
      String(engine === 'comunica' ? Math.min(3, options.runs) : options.runs),
      '--cap-ms',
      String(options.capMs),
    ];
    const env = options.store
      ? { ...process.env, MCPLD_STORE_USER: options.store.user, MCPLD_STORE_PASSWORD: options.store.password }
      : process.env;
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const reports: EngineReport[] = [];
    let stdout = '';
    let stderr = '';
    let killedIn: string | undefined;
    let loaded = false;
    let next = 0;
    // Loading has a long allowance; each query gets its cap for every run, and some slack.
    const allowance = () => (loaded ? options.capMs * 3 + 15_000 : 15 * 60_000);
    let watchdog = setTimeout(kill, allowance());
    function kill(): void {
      killedIn = loaded ? cases[next]?.name : undefined;
      child.kill('SIGKILL');
    }
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      let newline: number;
      while ((newline = stdout.indexOf('\n')) !== -1) {
        const line = stdout.slice(0, newline);
        stdout = stdout.slice(newline + 1);
        if (!line.trim()) continue;
        const parsed = JSON.parse(line) as EngineReport;
        reports.push(parsed);
        if (parsed.type === 'loaded') loaded = true;
        if (parsed.type === 'query') {
          next += 1;
          options.progress(
            `${engine}: ${parsed.name} ${parsed.capped ? `> ${options.capMs} ms` : `${ms(median(parsed.times) ?? NaN)} ms`}`,
          );
        }
        clearTimeout(watchdog);
        watchdog = setTimeout(kill, allowance());
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(watchdog);
      resolve({ reports, exitCode: code, stderr, ...(killedIn !== undefined ? { killedIn } : {}) });
    });
  });
}

/**
 * Loads the N-Quads into one engine and runs every case there, restarting the engine after a query it was killed in.
 */
export async function runEngine(
  engine: EngineName,
  nquadsFile: string,
  cases: QueryCase[],
  options: EngineOptions,
): Promise<EngineRun> {
  const result: EngineRun = {
    engine,
    loadSeconds: NaN,
    quads: 0,
    rssAfterLoadMiB: NaN,
    peakRssMiB: 0,
    restarts: 0,
    queries: new Map(),
  };
  let remaining = cases;
  let first = true;
  while (remaining.length > 0) {
    if (!first) result.restarts += 1;
    const outcome = await runChild(engine, nquadsFile, remaining, options);
    let loaded = false;
    for (const report of outcome.reports) {
      if (report.type === 'loaded') {
        loaded = true;
        if (first) {
          result.loadSeconds = report.seconds;
          result.quads = report.quads;
          result.rssAfterLoadMiB = report.rssMiB;
        }
      } else if (report.type === 'query') {
        const medianMs = median(report.times);
        result.queries.set(report.name, {
          name: report.name,
          runs: report.times.length,
          capped: report.capped,
          ...(medianMs !== undefined ? { medianMs } : {}),
          ...(report.times.length > 0 ? { rows: report.rows } : {}),
          ...(report.error !== undefined ? { error: report.error } : {}),
          ...(report.kept
            ? { kept: { medianMs: median(report.kept.times)!, runs: report.kept.times.length, rows: report.kept.rows } }
            : {}),
        });
      } else result.peakRssMiB = Math.max(result.peakRssMiB, report.peakRssMiB);
    }
    first = false;
    if (outcome.killedIn !== undefined) {
      // Killed: no `done` line, so no peak RSS of its own from it; the query counts as past the cap.
      result.queries.set(outcome.killedIn, { name: outcome.killedIn, runs: 0, capped: true });
      options.progress(`${engine}: ${outcome.killedIn} > ${options.capMs} ms (engine blocked, restarted)`);
    } else if (!loaded || outcome.exitCode !== 0) {
      throw new Error(
        `bench/store-engine (${engine}) failed with exit code ${outcome.exitCode}: ${outcome.stderr.trim().slice(-2000)}`,
      );
    }
    remaining = cases.filter((c) => !result.queries.has(c.name));
  }
  return result;
}

export function msText(timing: QueryTiming | undefined, capMs: number): string {
  if (!timing) return 'not run';
  if (timing.error !== undefined) return `failed (${timing.error.split('\n')[0]})`;
  if (timing.medianMs === undefined) return `> ${capMs} ms`;
  return `${ms(timing.medianMs)} ms`;
}

/**
 * One line per named query, in the house format:
 * `query NAME: 12.3 ms median (baseline Comunica over N3.Store: 812 ms, ratio 66x); budget < 100 ms and >= 10x: met`,
 * and a warning line when the two engines gave different numbers of rows. A query kept per session is judged by its
 * answer as `mcp-ld serve` gives it, and its line also gives the whole query's time:
 * `query NAME: 4.4 ms median of 5, kept per session as mcp-ld serve answers it (the whole query: 239.5 ms) (…)`.
 */
export function queryLines(
  ours: EngineRun,
  baseline: EngineRun,
  capMs: number,
): { lines: string[]; met: string[]; missed: string[] } {
  const lines: string[] = [];
  const met: string[] = [];
  const missed: string[] = [];
  for (const [name, timing] of ours.queries) {
    const base = baseline.queries.get(name);
    const oursMs = timing.kept?.medianMs ?? timing.medianMs;
    let ratioText = 'ratio unknown';
    let ratio: number | undefined;
    if (oursMs !== undefined && base && base.error === undefined) {
      if (base.medianMs !== undefined) {
        ratio = base.medianMs / oursMs;
        ratioText = `ratio ${formatRatio(ratio)}`;
      } else {
        ratio = capMs / oursMs;
        ratioText = `ratio >= ${formatRatio(ratio)}`;
      }
    }
    const ok = oursMs !== undefined && oursMs < queryBudgetMs && ratio !== undefined && ratio >= queryBudgetRatio;
    (ok ? met : missed).push(name);
    const runs = timing.runs > 0 ? `median of ${timing.runs}` : 'median';
    const figure = timing.kept
      ? `${ms(timing.kept.medianMs)} ms median of ${timing.kept.runs}, kept per session as mcp-ld serve answers it (the whole query: ${msText(timing, capMs)})`
      : msText(timing, capMs).replace(' ms', ` ms ${runs}`);
    lines.push(
      `query ${name}: ${figure} (baseline Comunica over N3.Store: ${msText(base, capMs)}, ${ratioText}); budget < ${queryBudgetMs} ms and >= ${queryBudgetRatio}x: ${ok ? 'met' : 'NOT met'}`,
    );
    if (timing.rows !== undefined && base?.rows !== undefined && timing.rows !== base.rows) {
      lines.push(`warning: query ${name}: ${timing.rows} rows from mcp-ld, ${base.rows} from Comunica over N3.Store`);
    }
    if (timing.kept && timing.rows !== undefined && timing.kept.rows !== timing.rows) {
      lines.push(
        `warning: query ${name}: ${timing.kept.rows} rows kept per session, ${timing.rows} from the whole query`,
      );
    }
  }
  return { lines, met, missed };
}
