// The console benchmark (DESIGN.md: every view's data under 300 ms at 1M quads): the store at about a million quads
// of real traffic (bench/store-workload.ts), served by the real Fastify app on loopback; for each view, the time its
// data takes to arrive over HTTP (the calls the console makes for it, in the same steps and at once where it makes them
// at once), beside the same named queries run in process on the same store (the baseline, same run). Medians of 5 runs
// after one to warm up.
import type { AddressInfo } from 'node:net';
import { buildServer } from '../src/api/server.js';
import { readServiceConfig } from '../src/core/config.js';
import { NamedQueries } from '../src/query/index.js';
import { EmbeddedStore } from '../src/store/embedded-store.js';
import { messageAt, messageTriples } from '../src/query/index.js';
import { IriMinter } from '../src/rdf/vocabulary.js';
import { figureLine } from './figures.js';
import { buildWorkload, liftBatches } from './store-workload.js';

const targetMs = 300;
const runs = 5;
const quadsWanted = Number(process.env['BENCH_QUADS'] ?? 1_000_000);

type Params = Record<string, string | number | boolean>;
/** One call the console makes: a named query, or another GET route. */
type Call = { query: string; params?: Params } | { get: string; accept: string };
/** A view: its calls in steps (each step's calls at once, as the page makes them). */
interface ViewCase {
  name: string;
  steps: Call[][];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const perCopy = 220 * 24;
  const workload = buildWorkload(Math.round((quadsWanted / perCopy) * 220));
  const batches = liftBatches(workload.text, 2000);
  const store = await EmbeddedStore.open({ maxQuads: 10_000_000 });
  for (const batch of batches) await store.ingest(batch.nquads);
  const quads = await store.size();
  const app = await buildServer(readServiceConfig({}, { MCPLD_QUERY_TIMEOUT: '20000' }), { logger: false, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const named = new NamedQueries();
  const session = workload.sessions[Math.floor(workload.sessions.length / 2)]!;
  console.log(`store: ${quads} quads, ${workload.messages} messages in ${workload.sessions.length} sessions`);

  const views: ViewCase[] = [
    { name: 'overview', steps: [[{ query: 'overview' }], [{ query: 'activity', params: { bucket: 'minute' } }, { query: 'protocol-versions' }]] },
    { name: 'sessions', steps: [[{ query: 'session-facets' }, { query: 'session-list', params: { sort: 'start', descending: true, limit: 51, offset: 0 } }]] },
    { name: 'session', steps: [[{ query: 'session-list', params: { search: session, limit: 20 } }, { query: 'session-timeline', params: { session, limit: 200 } }]] },
    { name: 'session, a later page', steps: [[{ query: 'session-list', params: { search: session, limit: 20 } }, { query: 'session-timeline', params: { session, from: 201, limit: 200 } }]] },
    { name: 'message (JSON and triples)', steps: [[{ get: `/sessions/${session}/messages/5`, accept: 'application/json' }, { get: `/sessions/${session}/messages/5`, accept: 'application/n-triples' }]] },
    { name: 'tools', steps: [[{ query: 'tool-calls' }, { query: 'tool-errors' }, { query: 'tool-latency' }]] },
    { name: 'tool (histogram)', steps: [[{ query: 'tool-latency-histogram', params: { tool: 'echo' } }]] },
    // Fetched beside the histogram, on its own (the page does not wait for it).
    { name: 'tool parameters, on their own', steps: [[{ query: 'tool-parameters', params: { tool: 'echo' } }]] },
    // Asked for only when the user opens it (it compares every tools/list answer).
    { name: 'tool definition changes, on demand', steps: [[{ query: 'tool-schema-changes', params: { tool: 'echo' } }]] },
    { name: 'failures', steps: [[{ query: 'failures' }]] },
    { name: 'query (named queries, then tool-calls on /sparql)', steps: [[{ get: '/queries', accept: 'application/json' }], [{ get: `/sparql?query=${encodeURIComponent(named.get('tool-calls').query.text)}`, accept: 'application/sparql-results+json' }]] },
    { name: 'vocabulary (the ontology)', steps: [[{ get: '/ontology', accept: 'application/ld+json' }]] },
  ];

  const overHttp = async (call: Call) => {
    const url = 'query' in call ? `${base}/queries/${call.query}?${new URLSearchParams(Object.entries(call.params ?? {}).map(([k, v]) => [k, String(v)]))}` : `${base}${call.get}`;
    const response = await fetch(url, { headers: { accept: 'query' in call ? 'application/json' : call.accept } });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  const minter = new IriMinter();
  const inProcess = async (call: Call) => {
    if ('query' in call) return void (await named.run(store, call.query, call.params ?? {}));
    // The routes that are no named query: what they ask of the store.
    if (call.get.startsWith('/sessions/')) {
      const graph = minter.session(session);
      await messageTriples(store, graph, (await messageAt(store, graph, 5))!);
    } else if (call.get.startsWith('/sparql')) {
      await named.run(store, 'tool-calls');
    }
  };
  const time = async (view: ViewCase, how: (call: Call) => Promise<void>, together: boolean) => {
    const started = performance.now();
    for (const step of view.steps) {
      if (together) await Promise.all(step.map(how));
      else for (const call of step) await how(call);
    }
    return performance.now() - started;
  };

  let over = 0;
  for (const view of views) {
    const http: number[] = [];
    const local: number[] = [];
    try {
      for (let run = 0; run <= runs; run++) {
        const h = await time(view, overHttp, true);
        const l = await time(view, inProcess, false);
        if (run > 0) {
          http.push(h);
          local.push(l);
        }
      }
    } catch (error) {
      if (!view.name.includes('on demand') && !view.name.includes('on their own')) over++;
      console.log(`console ${view.name}: FAILED (${(error as Error).message.slice(0, 200)})`);
      continue;
    }
    const ms = median(http);
    if (ms >= targetMs && !view.name.includes('on demand') && !view.name.includes('on their own')) over++;
    console.log(`${figureLine({ name: `console ${view.name}, over HTTP`, value: ms, unit: 'ms' }, { name: 'the same queries in process', value: median(local), unit: 'ms' }, 'lower')}${ms < targetMs ? '' : `  OVER ${targetMs} ms`}`);
  }
  const viewCount = views.filter((v) => !v.name.includes('on demand') && !v.name.includes('on their own')).length;
  console.log(`views whose data arrives under ${targetMs} ms: ${viewCount - over} of ${viewCount}`);
  await app.close();
  await store.close();
}

await main();
