// The percentile benchmark (README "Percentiles"): one group of answered requests with N distinct latencies in the
// embedded store, its p50, p95 and p99 found the way the named queries do (a GROUP_CONCAT of the latencies, then the
// nearest rank computed by the runner, `@percentiles`) against the baseline, SPARQL alone: for each distinct latency,
// the count of latencies at most it (a self-join), and the smallest whose count reaches ceil(p × n). Both give the same
// values (checked here); the time is the median of the timed runs, after one untimed run.
// Usage: node dist/bench/percentiles.js [--sizes 300,1000,3000] [--runs 3]
import { parseArgs } from 'node:util';
import { EmbeddedStore } from '../src/store/embedded-store.js';
import { readQuery, runNamedQuery, runQuery } from '../src/query/index.js';
import { figureLine } from './figures.js';

const percents = [50, 95, 99];

const concatQuery = readQuery(
  'percentiles.rq',
  `# @percentiles latencies p50=50 p95=95 p99=99
SELECT ?method (GROUP_CONCAT(STR(?ms); separator=" ") AS ?latencies)
WHERE { ?response mld:latencyMs ?ms ; mld:answersMethod ?method }
GROUP BY ?method`,
);

/** The baseline: the nearest rank in SPARQL alone, for one percentile. */
function selfJoin(percent: number): string {
  return `SELECT ?method (MIN(?v) AS ?p) WHERE {
  { SELECT ?method (COUNT(*) AS ?n) WHERE { ?r mld:latencyMs ?ms ; mld:answersMethod ?method } GROUP BY ?method }
  { SELECT ?method ?v (SUM(?c) AS ?atMost) WHERE {
      { SELECT DISTINCT ?method ?v WHERE { ?r mld:latencyMs ?v ; mld:answersMethod ?method } }
      { SELECT ?method ?w (COUNT(*) AS ?c) WHERE { ?r2 mld:latencyMs ?w ; mld:answersMethod ?method } GROUP BY ?method ?w }
      FILTER(?w <= ?v)
    } GROUP BY ?method ?v }
  FILTER(?atMost * 100 >= ${percent} * ?n)
} GROUP BY ?method`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(runs: number, run: () => Promise<number[]>): Promise<{ ms: number; values: number[] }> {
  let values = await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    values = await run();
    times.push(performance.now() - started);
  }
  return { ms: median(times), values };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { sizes: { type: 'string', default: '300,1000,3000' }, runs: { type: 'string', default: '3' } },
  });
  const runs = Number(values.runs);
  for (const size of values.sizes!.split(',').map(Number)) {
    const store = await EmbeddedStore.open({});
    try {
      // `size` answers with distinct latencies (a permutation of 0…size-1, scaled), one method.
      let nquads = '';
      for (let i = 0; i < size; i++) {
        const response = `<urn:mcp-ld:session/bench/message/${i}>`;
        nquads += `${response} <https://w3id.org/mcp-ld/ns#latencyMs> "${((i * 7919) % size) * 3}"^^<http://www.w3.org/2001/XMLSchema#decimal> <urn:mcp-ld:session/bench> .\n`;
        nquads += `${response} <https://w3id.org/mcp-ld/ns#answersMethod> "tools/call" <urn:mcp-ld:session/bench> .\n`;
      }
      await store.ingest(nquads);
      const ours = await timed(runs, async () => {
        const answer = await runNamedQuery(store, concatQuery, {}, { timeoutMs: 600_000 });
        const row = answer.form === 'SELECT' ? answer.rows[0]! : new Map();
        return ['p50', 'p95', 'p99'].map((name) => Number(row.get(name)?.value));
      });
      const baseline = await timed(runs, async () => {
        const found: number[] = [];
        for (const percent of percents) {
          const answer = await runQuery(store, selfJoin(percent), { timeoutMs: 600_000 });
          found.push(Number(answer.form === 'SELECT' ? answer.rows[0]?.get('p')?.value : NaN));
        }
        return found;
      });
      if (ours.values.join() !== baseline.values.join())
        throw new Error(`${size} latencies: the runner gives ${ours.values}, the self-join ${baseline.values}`);
      process.stdout.write(
        figureLine(
          {
            name: `p50, p95, p99 of ${size} distinct latencies (GROUP_CONCAT + nearest rank in the runner)`,
            value: ours.ms,
            unit: 'ms',
          },
          { name: 'SPARQL self-join', value: baseline.ms, unit: 'ms' },
          'lower',
        ) + '\n',
      );
    } finally {
      await store.close();
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench/percentiles failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
