// bench:store's remote mode (issue 20, item 4): the store benchmark's workload through `mcp-ld ingest --store` (whole
// process) into a Virtuoso started for the run as the tests start it (test/helpers/virtuoso.ts), part by part (about 1M
// quads each): the ingest rate as the store grows, Virtuoso's peak RSS, every named query's median through mcp-ld's
// remote store, beside the embedded store's figures from the same run at the sizes it holds, and where they cross.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { storeDefaults } from '../src/core/config.js';
import { startVirtuoso } from '../test/helpers/virtuoso.js';
import { runIngest } from './cli-ingest.js';
import { figureLine, formatRatio, formatValue } from './figures.js';
import { captureFile, buildWorkload, liftBatches } from './store-workload.js';
import { ms, msText, namedQueryCases, runEngine, type EngineRun, type QueryTiming } from './store-queries.js';

/** The goal of issue 20 for the remote store: every named query under 1 s at 10M quads. */
const remoteGoalMs = 1000;

interface RemoteBenchOptions {
  work: string;
  messages: number;
  /** Messages per `mcp-ld ingest --store` process (rounded to whole copies of the capture). */
  partMessages: number;
  /** The parts (1-based, cumulative) after which the named queries are timed; the last part always is. */
  compareAt?: number[];
  /** Virtuoso's NumberOfBuffers (8 KiB pages). */
  buffers: number;
  runs: number;
  capMs: number;
  progress: (text: string) => void;
  say: (line: string) => void;
}

/** The named queries timed on both stores once the first `parts` parts were ingested. */
interface SizePoint {
  parts: number;
  quads: number;
  remote: EngineRun;
  /** Virtuoso's peak RSS so far, in MiB. */
  virtuosoPeakMiB: number;
  /** Undefined where the embedded store cannot hold this many quads. */
  embedded?: EngineRun;
  /** `mcp-ld ingest --data` of the same messages, and Virtuoso's ingest of them (the sum of its parts). */
  embeddedIngest?: { seconds: number; peakRssMiB: number };
  remoteIngestSeconds: number;
  messages: number;
}

function millions(quads: number): string {
  return `${(quads / 1e6).toFixed(2)}M`;
}

function storedQuads(stderr: string): number {
  const match = /stored (\d+) quads/.exec(stderr);
  if (!match) throw new Error(`mcp-ld ingest did not say how many quads it stored: ${stderr.slice(-500)}`);
  return Number(match[1]);
}

/** The size at which two medians, measured at two sizes each, would be equal, if each grows as a power of the size. */
function projectedCrossing(q1: number, a1: number, b1: number, q2: number, a2: number, b2: number): number | undefined {
  const r1 = Math.log(a1 / b1);
  const r2 = Math.log(a2 / b2);
  // Not converging:
  if (r1 === r2 || (Math.sign(r1) === Math.sign(r2) && Math.abs(r2) >= Math.abs(r1))) return undefined;
  return q1 * Math.pow(q2 / q1, r1 / (r1 - r2));
}

export async function benchRemote(options: RemoteBenchOptions): Promise<void> {
  const { work, progress, say, capMs } = options;
  const captureMessages = readFileSync(captureFile, 'utf8').trimEnd().split('\n').length;
  const workload = buildWorkload(options.messages);
  const lines = workload.text.trimEnd().split('\n');
  const partLines = Math.max(1, Math.round(options.partMessages / captureMessages)) * captureMessages;
  const parts: string[][] = [];
  for (let i = 0; i < lines.length; i += partLines) parts.push(lines.slice(i, i + partLines));
  const points = [
    ...new Set([...(options.compareAt ?? [1, 4]).filter((p) => p >= 1 && p < parts.length), parts.length]),
  ].sort((a, b) => a - b);
  progress(
    `workload: ${workload.messages} messages in ${parts.length} parts; named queries timed after parts ${points.join(', ')}`,
  );

  // Every named query (none makes Virtuoso exit any more: unknown-keys, which did, reads the lifter's counts).
  const cases = namedQueryCases({ session: workload.sessions[0]! });

  // Stopped with a signal, the bench exits through 'exit', where the helper stops Virtuoso and removes its database.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  progress(`starting Virtuoso (NumberOfBuffers ${options.buffers})`);
  const virtuoso = await startVirtuoso({
    numberOfBuffers: options.buffers,
    maxDirtyBuffers: Math.round(options.buffers * 0.75),
    resultSetMaxRows: 1_000_000,
    startTimeoutMs: 600_000,
  });
  const credentials = { MCPLD_STORE_USER: virtuoso.user, MCPLD_STORE_PASSWORD: virtuoso.password };
  const engineOptions = { runs: options.runs, capMs, progress };
  const remoteOptions = {
    ...engineOptions,
    store: { url: virtuoso.queryUrl, user: virtuoso.user, password: virtuoso.password },
  };

  const prefixJsonl = path.join(work, 'prefix.jsonl');
  const prefixNQuads = path.join(work, 'prefix.nq');
  writeFileSync(prefixJsonl, '');
  writeFileSync(prefixNQuads, '');
  const partRates: { rate: number; quadsAfter: number }[] = [];
  const sizes: SizePoint[] = [];
  let quads = 0;
  let liftedQuads = 0;
  let messages = 0;
  let remoteIngestSeconds = 0;
  let clientPeakMiB = 0;
  try {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!.join('\n') + '\n';
      const partFile = path.join(work, 'part.jsonl');
      writeFileSync(partFile, part);
      const run = await runIngest(partFile, ['--store', virtuoso.queryUrl], credentials).catch((error: Error) => {
        throw new Error(
          `${error.message}\nVirtuoso ${virtuoso.running() ? 'is running' : 'exited'}; its log ends:\n${virtuoso.logTail()}`,
        );
      });
      const partQuads = storedQuads(run.stderr);
      quads += partQuads;
      messages += parts[i]!.length;
      remoteIngestSeconds += run.seconds;
      clientPeakMiB = Math.max(clientPeakMiB, run.peakRssMiB);
      partRates.push({ rate: parts[i]!.length / run.seconds, quadsAfter: quads });
      progress(
        `part ${i + 1}/${parts.length}: ${formatValue(parts[i]!.length / run.seconds, 'messages/s')} messages/s, ${quads} quads in Virtuoso, RSS peak ${formatValue(virtuoso.peakRssMiB(), 'MiB')} MiB`,
      );
      // The embedded store's copy of the same messages (lifted untimed), while it can hold them.
      if (liftedQuads + partQuads <= storeDefaults.maxQuads) {
        appendFileSync(prefixJsonl, part);
        for (const batch of liftBatches(part, 1000)) {
          appendFileSync(prefixNQuads, batch.nquads);
          liftedQuads += batch.quads;
        }
      }
      if (!points.includes(i + 1)) continue;

      progress('Virtuoso checkpoint');
      const t0 = performance.now();
      virtuoso.sql('checkpoint;');
      progress(`checkpoint: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      progress(`named queries on Virtuoso at ${quads} quads`);
      const remote = await runEngine('remote', '', cases, remoteOptions);
      const virtuosoPeakMiB = virtuoso.peakRssMiB();
      if (!virtuoso.running()) {
        progress('Virtuoso exited during the queries: restarting it on the same database');
        await virtuoso.restart();
      }
      const point: SizePoint = { parts: i + 1, quads, remote, virtuosoPeakMiB, remoteIngestSeconds, messages };
      if (liftedQuads === quads) {
        progress(`mcp-ld ingest --data of the same ${messages} messages`);
        const durable = await runIngest(prefixJsonl, ['--data', path.join(work, `data-${i + 1}`)]);
        point.embeddedIngest = { seconds: durable.seconds, peakRssMiB: durable.peakRssMiB };
        progress(`named queries on the embedded store at ${quads} quads`);
        point.embedded = await runEngine('mcp-ld', prefixNQuads, cases, engineOptions);
      }
      sizes.push(point);
    }
  } finally {
    await virtuoso.stop();
  }

  say(
    `workload: ${workload.messages} messages, ${quads} quads, ingested into Virtuoso 7.2.5 (NumberOfBuffers ${options.buffers}) in ${parts.length} part${parts.length === 1 ? '' : 's'} of ${partLines} messages, one \`mcp-ld ingest --store\` each`,
  );
  if (parts.length > 1) {
    say(
      `mcp-ld ingest --store (Virtuoso), messages/s per part (quads in the store after it): ${partRates.map((p) => `${formatValue(p.rate, 'messages/s')} (${millions(p.quadsAfter)})`).join(' ')}`,
    );
  }
  for (const size of sizes) {
    const at = `at ${size.quads} quads`;
    if (size.embeddedIngest) {
      say(
        figureLine(
          {
            name: `mcp-ld ingest --store Virtuoso (whole process${parts.length > 1 ? ', sum of the parts' : ''}), ${size.messages} messages`,
            value: size.messages / size.remoteIngestSeconds,
            unit: 'messages/s',
          },
          {
            name: 'mcp-ld ingest --data, embedded, durable (whole process)',
            value: size.messages / size.embeddedIngest.seconds,
            unit: 'messages/s',
          },
          'higher',
        ),
      );
    }
    if (size.embedded) {
      say(
        figureLine(
          { name: `Virtuoso peak RSS ${at} (ingest and every named query)`, value: size.virtuosoPeakMiB, unit: 'MiB' },
          {
            name: 'mcp-ld embedded store, query process peak RSS (load and every named query)',
            value: size.embedded.peakRssMiB,
            unit: 'MiB',
          },
          'lower',
        ),
      );
    } else {
      say(
        `Virtuoso peak RSS ${at} (ingest and every named query): ${formatValue(size.virtuosoPeakMiB, 'MiB')} MiB (the embedded store cannot hold ${size.quads} quads: it refuses ingests past MCPLD_MAX_QUADS, ${storeDefaults.maxQuads} by default, and loading crashed at ~9.8M in WebAssembly's 4 GiB)`,
      );
    }
  }
  say(
    figureLine(
      { name: 'mcp-ld ingest --store peak RSS (the client process, largest part)', value: clientPeakMiB, unit: 'MiB' },
      { name: 'budget', value: 1024, unit: 'MiB' },
      'lower',
    ),
  );

  for (const size of sizes) {
    for (const [name, timing] of size.remote.queries) {
      const runs = timing.runs > 0 ? ` median of ${timing.runs}` : '';
      const remoteText = msText(timing, capMs).replace(' ms', ` ms${runs}`);
      const base = size.embedded?.queries.get(name);
      let baseText: string;
      if (!size.embedded) baseText = `the embedded store cannot hold ${size.quads} quads`;
      else if (timing.medianMs !== undefined && base?.medianMs !== undefined)
        baseText = `baseline mcp-ld embedded store: ${msText(base, capMs)}, ratio ${formatRatio(base.medianMs / timing.medianMs)}`;
      else baseText = `baseline mcp-ld embedded store: ${msText(base, capMs)}`;
      const goal =
        size.parts === parts.length
          ? `; goal < ${remoteGoalMs} ms: ${timing.medianMs !== undefined && timing.medianMs < remoteGoalMs ? 'met' : 'NOT met'}`
          : '';
      say(`query ${name} at ${size.quads} quads, Virtuoso: ${remoteText} (${baseText})${goal}`);
      if (timing.rows !== undefined && base?.rows !== undefined && timing.rows !== base.rows) {
        say(
          `warning: query ${name} at ${size.quads} quads: ${timing.rows} rows from Virtuoso, ${base.rows} from the embedded store`,
        );
      }
    }
  }

  // Where Virtuoso's figures cross the embedded store's, at the sizes both hold (and projected past them).
  const both = sizes.filter((s) => s.embedded);
  if (both.length > 0) {
    for (const name of cases.map((c) => c.name)) {
      const pairs = both.map((s) => ({
        quads: s.quads,
        remote: s.remote.queries.get(name),
        embedded: s.embedded!.queries.get(name),
      }));
      const measured = pairs.filter(
        (
          p,
        ): p is {
          quads: number;
          remote: QueryTiming & { medianMs: number };
          embedded: QueryTiming & { medianMs: number };
        } => p.remote?.medianMs !== undefined && p.embedded?.medianMs !== undefined,
      );
      const text = pairs
        .map((p) => `${millions(p.quads)} ${msText(p.remote, capMs)} vs ${msText(p.embedded, capMs)}`)
        .join(', ');
      const faster = measured.find((p) => p.remote.medianMs <= p.embedded.medianMs);
      let verdict: string;
      if (faster) verdict = `Virtuoso as fast or faster from ${millions(faster.quads)} quads`;
      else if (measured.length >= 2) {
        const [a, b] = [measured[0]!, measured[measured.length - 1]!];
        const cross = projectedCrossing(
          a.quads,
          a.remote.medianMs,
          a.embedded.medianMs,
          b.quads,
          b.remote.medianMs,
          b.embedded.medianMs,
        );
        verdict = `the embedded store is faster at every size both hold; ${cross === undefined ? 'the gap does not narrow' : `projected to cross near ${millions(cross)} quads (each median as a power of the size)`}`;
      } else verdict = 'the embedded store is faster at every size both hold';
      say(`crossing ${name}: Virtuoso vs embedded medians ${text}: ${verdict}`);
    }
  }
  const last = sizes[sizes.length - 1]!;
  const under = [...last.remote.queries.values()].filter((t) => t.medianMs !== undefined && t.medianMs < remoteGoalMs);
  const over = [...last.remote.queries.values()].filter(
    (t) => !(t.medianMs !== undefined && t.medianMs < remoteGoalMs),
  );
  say(
    `named queries under ${remoteGoalMs} ms on Virtuoso at ${last.quads} quads: ${under.length} of ${last.remote.queries.size}${over.length ? `; not met: ${over.map((t) => `${t.name} (${t.medianMs !== undefined ? `${ms(t.medianMs)} ms` : t.error !== undefined ? 'failed' : `> ${capMs} ms`})`).join(', ')}` : ''}`,
  );
}
