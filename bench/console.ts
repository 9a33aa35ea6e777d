// The console benchmark (DESIGN.md: every view's data under 300 ms at 1M quads): the store at about a million quads
// of real traffic (bench/store-workload.ts), served by the real Fastify app on loopback; for each view, the time its
// data takes to arrive over HTTP (the calls the console makes for it, in the same steps and at once where it makes them
// at once), beside the same named queries run in process on the same store (the baseline, same run). Medians of 5 runs
// after one to warm up. With --scale, instead: 10,000 short sessions (BENCH_SESSIONS), then one session of 50,000
// messages (BENCH_SESSION_MESSAGES), and the views that page through them (bench/console-scale-workload.ts).
import type { AddressInfo } from 'node:net';
import { buildServer } from '../src/api/server.js';
import { readServiceConfig } from '../src/core/config.js';
import { NamedQueries, SessionPartials } from '../src/query/index.js';
import { EmbeddedStore } from '../src/store/embedded-store.js';
import { messageAt, messageTriples } from '../src/query/index.js';
import { IriMinter } from '../src/rdf/vocabulary.js';
import { figureLine } from './figures.js';
import { buildSessionWorkload, buildWorkload, liftBatches } from './store-workload.js';
import { longSession, manySessions } from './console-scale-workload.js';

const targetMs = 300;
const runs = 5;
const quadsWanted = Number(process.env['BENCH_QUADS'] ?? 1_000_000);
const scaleSessions = Number(process.env['BENCH_SESSIONS'] ?? 10_000);
const scaleMessages = Number(process.env['BENCH_SESSION_MESSAGES'] ?? 50_000);

type Params = Record<string, string | number | boolean>;
/** One call the console makes: a named query, or another GET route. */
type Call =
  | { query: string; params?: Params }
  | { get: string; accept: string; message?: { session: string; order: number }; sparql?: string };
/** A view: its calls in steps (each step's calls at once, as the page makes them). */
interface ViewCase {
  name: string;
  steps: Call[][];
  /** Fetched on its own or on demand: the page does not wait for it, so it is not held to the target. */
  aside?: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The views of the console at about a million quads of real traffic (the capture repeated). */
function standardViews(session: string, named: NamedQueries): ViewCase[] {
  return [
    {
      name: 'overview',
      steps: [
        [{ query: 'overview' }],
        [{ query: 'activity', params: { bucket: 'minute' } }, { query: 'protocol-versions' }],
      ],
    },
    sessionsView('sessions'),
    ...sessionViews(session, [1, 201], 5),
    { name: 'tools', steps: [[{ query: 'tool-calls' }, { query: 'tool-errors' }, { query: 'tool-latency' }]] },
    { name: 'tool (histogram)', steps: [[{ query: 'tool-latency-histogram', params: { tool: 'echo' } }]] },
    // Fetched beside the histogram, on its own (the page does not wait for it).
    {
      name: 'tool parameters, on their own',
      steps: [[{ query: 'tool-parameters', params: { tool: 'echo' } }]],
      aside: true,
    },
    // Asked for only when the user opens it (it compares every tools/list answer).
    {
      name: 'tool definition changes, on demand',
      steps: [[{ query: 'tool-schema-changes', params: { tool: 'echo' } }]],
      aside: true,
    },
    { name: 'failures', steps: [[{ query: 'failures' }]] },
    {
      name: 'query (named queries, then tool-calls on /sparql)',
      steps: [
        [{ get: '/queries', accept: 'application/json' }],
        [
          {
            get: `/sparql?query=${encodeURIComponent(named.get('tool-calls').query.text)}`,
            accept: 'application/sparql-results+json',
            sparql: 'tool-calls',
          },
        ],
      ],
    },
    { name: 'vocabulary (the ontology)', steps: [[{ get: '/ontology', accept: 'application/ld+json' }]] },
    // Each named query the server answers from its sessions' answers, on its own (no view of its own: not counted).
    ...named
      .list()
      .filter((query) => query.perSession)
      .map((query) => ({
        name: `named query ${query.name} (kept per session)`,
        steps: [[{ query: query.name }]],
        aside: true,
      })),
  ];
}

/** The Sessions view: the filters' facets and the first page of the table, latest first. */
function sessionsView(name: string): ViewCase {
  return {
    name,
    steps: [
      [
        { query: 'session-facets' },
        { query: 'session-list', params: { sort: 'start', descending: true, limit: 51, offset: 0 } },
      ],
    ],
  };
}

/** The Session view at each page that starts at one of `froms`, and one message's JSON and triples. */
function sessionViews(session: string, froms: number[], message: number, label = ''): ViewCase[] {
  const pages = froms.map((from, i): ViewCase => ({
    name: `session${label}${i === 0 ? '' : from === froms[froms.length - 1] && froms.length > 2 ? ', the last page' : ', a later page'}`,
    steps: [
      [
        { query: 'session-summary', params: { session } },
        { query: 'session-timeline', params: from === 1 ? { session, limit: 200 } : { session, from, limit: 200 } },
      ],
    ],
  }));
  const url = `/sessions/${session}/messages/${message}`;
  return [
    ...pages,
    {
      name: `message (JSON and triples)${label}`,
      steps: [
        [
          { get: url, accept: 'application/json', message: { session, order: message } },
          { get: url, accept: 'application/n-triples', message: { session, order: message } },
        ],
      ],
    },
  ];
}

/**
 * Times each view's data over HTTP (its calls as the page makes them) and in process; prints a line each. The
 * server answers the named queries that declare @per-session from their sessions' answers, which it is given time to
 * make after the run that warms up; with `write`, each run comes after a write (`label` says which), so the timed
 * answers include rerunning what that write touched (the baseline, the whole queries in process, runs after it too).
 */
async function timeViews(
  store: EmbeddedStore,
  views: ViewCase[],
  write?: { label: string; run: () => Promise<void> },
): Promise<{ under: number; counted: number }> {
  const sessionPartials = new SessionPartials(store);
  const app = await buildServer(readServiceConfig({}, { MCPLD_QUERY_TIMEOUT: '20000' }), {
    logger: false,
    store,
    sessionPartials,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const named = new NamedQueries();
  const minter = new IriMinter();
  const overHttp = async (call: Call) => {
    const url =
      'query' in call
        ? `${base}/queries/${call.query}?${new URLSearchParams(Object.entries(call.params ?? {}).map(([k, v]) => [k, String(v)]))}`
        : `${base}${call.get}`;
    const response = await fetch(url, { headers: { accept: 'query' in call ? 'application/json' : call.accept } });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  const inProcess = async (call: Call) => {
    if ('query' in call) return void (await named.run(store, call.query, call.params ?? {}));
    // The routes that are no named query: what they ask of the store.
    if (call.message) {
      const graph = minter.session(call.message.session);
      await messageTriples(store, graph, (await messageAt(store, graph, call.message.order))!);
    } else if (call.sparql) {
      await named.run(store, call.sparql);
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
    let madeMs = 0;
    const firstCall = performance.now();
    try {
      for (let run = 0; run <= runs; run++) {
        if (run === 1) {
          await sessionPartials.settled();
          madeMs = performance.now() - firstCall;
        }
        if (write) await write.run();
        const h = await time(view, overHttp, true);
        const l = await time(view, inProcess, false);
        if (run > 0) {
          http.push(h);
          local.push(l);
        }
      }
    } catch (error) {
      if (!view.aside) over++;
      console.log(`console ${view.name}${write?.label ?? ''}: FAILED (${(error as Error).message.slice(0, 200)})`);
      continue;
    }
    const ms = median(http);
    if (ms >= targetMs && !view.aside) over++;
    console.log(
      `${figureLine({ name: `console ${view.name}${write?.label ?? ''}, over HTTP`, value: ms, unit: 'ms' }, { name: 'the same queries in process', value: median(local), unit: 'ms' }, 'lower')}${ms < targetMs ? '' : `  OVER ${targetMs} ms`}`,
    );
    // What keeping costs: the time from the first call (answered whole) until the sessions' answers it started to
    // make are all made, in the background.
    const keeps = view.steps.some((step) => step.some((call) => 'query' in call && named.get(call.query).perSession));
    if (!write && !view.aside && keeps)
      console.log(`  (its answers kept per session: all made ${(madeMs / 1000).toFixed(1)} s after its first call)`);
  }
  await app.close();
  sessionPartials.close();
  const counted = views.filter((v) => !v.aside).length;
  return { under: counted - over, counted };
}

async function storeOf(text: string): Promise<EmbeddedStore> {
  const store = await EmbeddedStore.open({ maxQuads: 10_000_000 });
  for (const batch of liftBatches(text, 2000)) await store.ingest(batch.nquads);
  return store;
}

/** About a million quads of real traffic: every view. */
async function atAMillionQuads(): Promise<{ under: number; counted: number }> {
  const perCopy = 220 * 24;
  const workload = buildWorkload(Math.round((quadsWanted / perCopy) * 220));
  const store = await storeOf(workload.text);
  const session = workload.sessions[Math.floor(workload.sessions.length / 2)]!;
  console.log(
    `store: ${await store.size()} quads, ${workload.messages} messages in ${workload.sessions.length} sessions`,
  );
  const views = standardViews(session, new NamedQueries());
  const result = await timeViews(store, views);
  // The live case: a recorder writes one more session of the capture (220 messages) before each run.
  let written = 0;
  const live = await timeViews(
    store,
    views.filter((view) => view.steps.some((step) => step.some((call) => 'query' in call))),
    {
      label: ', after a write of one session',
      run: async () => {
        for (const batch of liftBatches(buildSessionWorkload(220, `live-${++written}`).text, 2000))
          await store.ingest(batch.nquads);
      },
    },
  );
  await store.close();
  return { under: result.under + live.under, counted: result.counted + live.counted };
}

/** 10,000 short sessions, then one session of 50,000 messages: the views that page through them. */
async function atScale(): Promise<{ under: number; counted: number }> {
  const many = manySessions(scaleSessions);
  let store = await storeOf(many.text);
  console.log(`store: ${await store.size()} quads, ${many.messages} messages in ${many.sessions.length} sessions`);
  const middle = many.sessions[Math.floor(many.sessions.length / 2)]!;
  const first = await timeViews(store, [
    sessionsView(`sessions (${many.sessions.length} sessions)`),
    ...sessionViews(middle, [1], 5, ' (one of them)'),
  ]);
  await store.close();

  const long = longSession(scaleMessages);
  store = await storeOf(long.text);
  console.log(`store: ${await store.size()} quads, ${long.messages} messages in 1 session`);
  const last = Math.floor((long.messages - 1) / 200) * 200 + 1;
  const second = await timeViews(
    store,
    sessionViews(
      long.session,
      [1, Math.floor(last / 400) * 200 + 1, last],
      Math.floor(long.messages / 2),
      ` (${long.messages} messages)`,
    ),
  );
  await store.close();
  return { under: first.under + second.under, counted: first.counted + second.counted };
}

const { under, counted } = process.argv.includes('--scale') ? await atScale() : await atAMillionQuads();
console.log(`views whose data arrives under ${targetMs} ms: ${under} of ${counted}`);
