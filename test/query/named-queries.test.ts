import assert from 'node:assert/strict';
import { isJsonObject, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { mld, ns } from '../../src/rdf/vocabulary.js';
import { completeAnswer, NamedQueries, planAnswer, runQuery, type ParameterValues } from '../../src/query/index.js';
import type { QueryResult } from '../../src/store/quad-store.js';
import {
  canonicalJson,
  corpusStore,
  edgeSession,
  msBetween,
  ogcSession,
  type Corpus,
  type Message,
} from './corpus-store.js';
import { percentileOf } from '../helpers/rows.js';

type Row = Record<string, string | undefined>;

const named = new NamedQueries();
const direction = (iri: string | undefined) =>
  iri === mld.clientToServer ? 'c2s' : iri === mld.serverToClient ? 's2c' : iri;

function rowsOf(result: QueryResult): Row[] {
  assert.equal(result.form, 'SELECT');
  return result.rows.map((row) => Object.fromEntries(result.variables.map((v) => [v, row.get(v)?.value])));
}

/** Rows keyed by some columns, each row reduced to the columns compared (numbers as numbers). */
function keyed(rows: Row[], key: (row: Row) => string, value: (row: Row) => unknown): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const row of rows) {
    const k = key(row);
    assert.ok(!map.has(k), `one row per ${k}`);
    map.set(k, value(row));
  }
  return map;
}

function count<K>(map: Map<K, number>, key: K, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

const num = (text: string | undefined) => (text === undefined ? undefined : Number(text));
const time = (text: string | undefined) => (text === undefined ? undefined : Date.parse(text));
const params = (m: Message): JsonObject => (isJsonObject(m.msg['params']) ? m.msg['params'] : {});
const result = (m: Message | undefined): JsonObject | undefined =>
  m && isJsonObject(m.msg['result']) ? m.msg['result'] : undefined;

describe('query: the named queries, each against figures computed from the JSON', function () {
  this.timeout(120_000);
  let corpus: Corpus;
  let messages: Message[];

  before(async () => {
    corpus = await corpusStore();
    messages = corpus.messages;
  });
  after(async () => corpus?.store.close());

  const run = async (name: string, values: ParameterValues = {}) => rowsOf(await named.run(corpus.store, name, values));
  const serverOf = (session: string) => messages.find((m) => m.session === session && m.server !== undefined)?.server;
  const initialize = (session: string) =>
    messages.find((m) => m.session === session && m.method === 'initialize' && m.kind === 'request');
  // 2026-07-28 has no initialize: every request's _meta names the client, every result's the server.
  const metaOf = (body: JsonObject | undefined, key: string) => {
    const meta = body?.['_meta'];
    return isJsonObject(meta) && isJsonObject(meta[key]) ? meta[key] : undefined;
  };
  const clientInfoOf = (session: string): JsonObject | undefined => {
    const init = initialize(session);
    if (init) return params(init)['clientInfo'] as JsonObject | undefined;
    return messages
      .filter((m) => m.session === session && m.kind === 'request')
      .map((m) => metaOf(params(m), 'io.modelcontextprotocol/clientInfo'))
      .find((info) => info !== undefined);
  };
  const serverInfoOf = (session: string): JsonObject | undefined => {
    const init = initialize(session);
    if (init) return result(init.response)?.['serverInfo'] as JsonObject | undefined;
    return messages
      .filter((m) => m.session === session && m.kind === 'result')
      .map((m) => metaOf(result(m), 'io.modelcontextprotocol/serverInfo'))
      .find((info) => info !== undefined);
  };
  const protocolVersionOf = (session: string): JsonValue | undefined => {
    const init = initialize(session);
    if (init) return result(init.response)?.['protocolVersion'];
    const declared = messages
      .filter((m) => m.session === session && m.kind === 'request')
      .map((m) => (params(m)['_meta'] as JsonObject | undefined)?.['io.modelcontextprotocol/protocolVersion']);
    return declared.find((v) => v !== undefined);
  };

  /** Which anchor messages (calls, requests, messages…) a check counts: all of them, or those in a time window. */
  type Keep = (m: Message) => boolean;
  const all: Keep = () => true;

  it('has at least 12 named queries, each with a title, a description and typed parameters', () => {
    const all = named.list();
    assert.ok(all.length >= 12, `${all.length} named queries`);
    for (const q of all) {
      assert.ok(q.title && q.description, q.name);
      for (const p of q.parameters) assert.ok(p.description, `${q.name} ${p.name}`);
    }
  });

  /** Sessions with a message in the window `keep` stands for (all sessions when it keeps everything). */
  const checkSessions = async (values: ParameterValues = {}, keep: Keep = all) => {
    const rows = await run('sessions', values);
    const sessions = [...new Set(messages.map((m) => m.session))].filter(
      (id) => keep === all || messages.some((m) => m.session === id && keep(m)),
    );
    assert.equal(rows.length, sessions.length);
    for (const id of sessions) {
      const row = rows.find((r) => r['sessionId'] === id);
      assert.ok(row, id);
      const own = messages.filter((m) => m.session === id);
      const times = own.flatMap((m) => (m.ts ? [Date.parse(m.ts)] : []));
      assert.equal(num(row['messages']), own.length, id);
      assert.equal(time(row['firstMessage']), times.length ? Math.min(...times) : undefined, id);
      assert.equal(time(row['lastMessage']), times.length ? Math.max(...times) : undefined, id);
      assert.equal(row['session'], corpus.sessionIri(id));
      assert.equal(row['server'], serverOf(id), id);
      const init = initialize(id);
      const clientInfo = clientInfoOf(id);
      const serverInfo = serverInfoOf(id);
      assert.equal(row['client'], clientInfo?.['name'], id);
      assert.equal(row['clientVersion'], clientInfo?.['version'], id);
      assert.equal(row['serverImplementation'], serverInfo?.['name'], id);
      assert.equal(row['serverVersion'], serverInfo?.['version'], id);
      assert.equal(row['requestedProtocolVersion'], init ? params(init)['protocolVersion'] : undefined, id);
      assert.equal(row['protocolVersion'], protocolVersionOf(id), id);
    }
    return sessions;
  };

  it('sessions: client, server and protocol versions, message counts and times', async () => {
    const sessions = await checkSessions();
    const recent = await checkSessions(
      { since: '2026-01-01T00:00:00Z' },
      (m) => m.ts !== undefined && Date.parse(m.ts) >= Date.parse('2026-01-01T00:00:00Z'),
    );
    assert.ok(recent.includes(edgeSession) && recent.length < sessions.length);
  });

  const checkToolCalls = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, { calls: number; sessions: Set<string>; times: number[] }>();
    for (const m of messages.filter((m) => m.method === 'tools/call' && m.kind === 'request' && keep(m))) {
      const key = `${serverOf(m.session)}|${params(m)['name']}`;
      const entry = expected.get(key) ?? { calls: 0, sessions: new Set(), times: [] };
      entry.calls++;
      entry.sessions.add(m.session);
      if (m.ts) entry.times.push(Date.parse(m.ts));
      expected.set(key, entry);
    }
    const rows = await run('tool-calls', values);
    const got = keyed(
      rows,
      (r) => `${r['server']}|${r['tool']}`,
      (r) => [num(r['calls']), num(r['sessions']), time(r['firstCall']), time(r['lastCall'])],
    );
    const want = new Map(
      [...expected].map(([k, e]) => [
        k,
        [
          e.calls,
          e.sessions.size,
          e.times.length ? Math.min(...e.times) : undefined,
          e.times.length ? Math.max(...e.times) : undefined,
        ],
      ]),
    );
    assert.deepEqual(got, want);
    return expected;
  };

  it('tool-calls: calls per tool and server, sessions, first and last call', async () => {
    const expected = await checkToolCalls();
    const echo = await run('tool-calls', { tool: 'echo' });
    const echoServers = [...expected.keys()].filter((key) => key.endsWith('|echo'));
    assert.ok(echoServers.length >= 2);
    assert.deepEqual(
      echo.map((r) => r['tool']),
      echoServers.map(() => 'echo'),
    );
  });

  it('the seed-vocabulary query (GRAPH ?g, tool calls per name) gives the counts of the JSON', async () => {
    const expected = new Map<string, number>();
    for (const m of messages)
      if (m.method === 'tools/call' && m.kind === 'request') count(expected, params(m)['name'] as string);
    const answer = await runQuery(
      corpus.store,
      'SELECT ?name (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?m a mcp:CallToolRequest ; jrpc:hasParameters ?p . ?p mcp:hasName ?name } } GROUP BY ?name',
    );
    assert.deepEqual(
      keyed(
        rowsOf(answer),
        (r) => r['name']!,
        (r) => num(r['n']),
      ),
      expected,
    );
  });

  const checkToolErrors = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, number[]>();
    for (const m of messages.filter((m) => m.method === 'tools/call' && m.kind === 'request' && keep(m))) {
      const key = `${serverOf(m.session)}|${params(m)['name']}`;
      const [calls, answered, toolErrors, rpcErrors] = expected.get(key) ?? [0, 0, 0, 0];
      expected.set(key, [
        calls! + 1,
        answered! + (m.response ? 1 : 0),
        toolErrors! + (result(m.response)?.['isError'] === true ? 1 : 0),
        rpcErrors! + (m.response?.kind === 'error' ? 1 : 0),
      ]);
    }
    const rows = await run('tool-errors', values);
    const got = keyed(
      rows,
      (r) => `${r['server']}|${r['tool']}`,
      (r) => [
        num(r['calls']),
        num(r['answered']),
        num(r['toolErrors']),
        num(r['rpcErrors']),
        num(r['unanswered']),
        num(r['errorRate']),
      ],
    );
    const want = new Map(
      [...expected].map(([k, [c, a, t, e]]) => [k, [c, a, t, e, c! - a!, a! > 0 ? (t! + e!) / a! : 0]]),
    );
    for (const [k, w] of want) {
      const g = got.get(k) as number[];
      assert.ok(g, k);
      assert.deepEqual(g.slice(0, 5), w.slice(0, 5), k);
      assert.ok(Math.abs(g[5]! - w[5]!) < 1e-9, `${k}: error rate ${g[5]} ≠ ${w[5]}`);
    }
    assert.equal(got.size, want.size);
  };

  it('tool-errors: tool errors (isError) and JSON-RPC errors per tool, and the error rate', () => checkToolErrors());

  const answeredWithTimes = () => messages.filter((m) => m.kind === 'request' && m.response && m.ts && m.response.ts);

  /** The latencies of the answered requests `keep` keeps, grouped by `key`. */
  const latencyGroups = (key: (m: Message) => string, keep: (m: Message) => boolean = () => true) => {
    const groups = new Map<string, number[]>();
    for (const m of answeredWithTimes().filter(keep))
      groups.set(key(m), [...(groups.get(key(m)) ?? []), msBetween(m.ts!, m.response!.ts!)]);
    return groups;
  };
  const latencyColumns = ['answered', 'avgMs', 'p50Ms', 'p95Ms', 'p99Ms', 'minMs', 'maxMs'];
  /**
   * Rows of a latency query against the groups: count, p50, p95, p99 (nearest rank), extremes exactly; the mean
   * closely.
   */
  const checkLatencies = (rows: Row[], key: (r: Row) => string, groups: Map<string, number[]>) => {
    const got = keyed(rows, key, (r) =>
      ['answered', 'minMs', 'maxMs', 'p50Ms', 'p95Ms', 'p99Ms', 'avgMs'].map((c) => num(r[c])),
    );
    assert.equal(got.size, groups.size);
    for (const [k, list] of groups) {
      const g = got.get(k) as number[];
      assert.ok(g, k);
      assert.deepEqual(
        g.slice(0, 6),
        [
          list.length,
          Math.min(...list),
          Math.max(...list),
          percentileOf(list, 50),
          percentileOf(list, 95),
          percentileOf(list, 99),
        ],
        k,
      );
      assert.ok(Math.abs(g[6]! - list.reduce((a, b) => a + b, 0) / list.length) < 1e-6, k);
    }
    return got;
  };

  const checkLatencyByMethod = async (values: ParameterValues = {}, keep: Keep = all) => {
    const groups = latencyGroups((m) => `${m.method}|${m.dir}`, keep);
    const rows = await run('latency-by-method', values);
    if (rows.length > 0) assert.deepEqual(Object.keys(rows[0]!), ['method', 'direction', ...latencyColumns]);
    return { rows, groups, got: checkLatencies(rows, (r) => `${r['method']}|${direction(r['direction'])}`, groups) };
  };

  it('latency-by-method: answered requests per method and direction, average, p50, p95, p99, smallest and largest latency', async () => {
    const { rows, groups, got } = await checkLatencyByMethod();
    // Percentiles that tell something: a group of dozens, whose p50, p95 and p99 differ.
    const calls = got.get('tools/call|c2s') as number[];
    assert.ok(
      groups.get('tools/call|c2s')!.length >= 40 && new Set(calls.slice(3, 6)).size === 3,
      `tools/call: ${calls}`,
    );
    // More than a day: 1 day, 0.75 s.
    assert.ok(rows.some((r) => num(r['maxMs']) === 86_400_750));
    const only = await run('latency-by-method', { method: 'ping' });
    assert.deepEqual(
      only.map((r) => r['method']),
      ['ping'],
    );
  });

  it('a query with @percentiles is sent without its ORDER BY (Virtuoso cannot sort its lists), which mcp-ld applies: the same rows in the same order', async () => {
    for (const name of ['latency-by-method', 'tool-latency', 'activity']) {
      const query = named.get(name);
      const prepared = named.prepare(name, name === 'activity' ? { bucket: 'minute' } : {});
      const plan = planAnswer(query, prepared);
      assert.equal((plan.sent.tree as { order?: unknown }).order, undefined, name);
      const sortedByStore = rowsOf(completeAnswer(query, await runQuery(corpus.store, prepared)));
      const sortedHere = rowsOf(plan.complete(await runQuery(corpus.store, plan.sent)));
      assert.ok(sortedHere.length > 1, name);
      assert.deepEqual(sortedHere, sortedByStore, name);
    }
  });

  const checkToolLatency = async (values: ParameterValues = {}, keep: Keep = all) => {
    const groups = latencyGroups(
      (m) => `${serverOf(m.session)}|${params(m)['name']}`,
      (m) => m.method === 'tools/call' && keep(m),
    );
    const rows = await run('tool-latency', values);
    if (rows.length > 0) assert.deepEqual(Object.keys(rows[0]!), ['server', 'tool', ...latencyColumns]);
    checkLatencies(rows, (r) => `${r['server']}|${r['tool']}`, groups);
    return groups;
  };

  it('tool-latency: answered calls per server and tool, average, p50, p95, p99, smallest and largest latency', async () => {
    const groups = await checkToolLatency();
    assert.ok(
      [...groups.values()].some((list) => list.length >= 3),
      'a tool called several times',
    );
    assert.deepEqual([...new Set((await run('tool-latency', { tool: 'echo' })).map((r) => r['tool']))], ['echo']);
  });

  /** The answered requests `keep` keeps, slowest first (ties by IRI). */
  const slowest = (keep: Keep = all) =>
    answeredWithTimes()
      .filter(keep)
      .map((m) => ({ iri: m.iri, ms: msBetween(m.ts!, m.response!.ts!), m }))
      .sort((a, b) => b.ms - a.ms || (a.iri < b.iri ? -1 : 1));
  const checkSlowest = async (values: ParameterValues = {}, keep: Keep = all) => {
    const rows = await run('slowest-requests', values);
    assert.deepEqual(
      rows.map((r) => [r['request'], num(r['ms'])]),
      slowest(keep)
        .slice(0, 10)
        .map((e) => [e.iri, e.ms]),
    );
    return rows;
  };

  it('slowest-requests: the slowest answered requests, slowest first, honouring limit and method', async () => {
    const rows = await checkSlowest();
    const top = slowest()[0]!;
    assert.equal(rows[0]!['method'], top.m.method);
    for (const row of rows)
      assert.equal(row['server'], serverOf(messages.find((m) => m.iri === row['request'])!.session), row['request']);
    assert.equal(
      rows[0]!['outcome'],
      top.m.response!.kind === 'error'
        ? 'error'
        : result(top.m.response)?.['isError'] === true
          ? 'tool error'
          : 'result',
    );
    const three = await run('slowest-requests', { limit: 3, method: 'resources/read' });
    assert.deepEqual(
      three.map((r) => [r['request'], num(r['ms'])]),
      slowest((m) => m.method === 'resources/read')
        .slice(0, 3)
        .map((e) => [e.iri, e.ms]),
    );
  });

  it('cancelled-requests: each cancellation with its request (same session and sender, id of the same JSON type)', async () => {
    const cancellations = messages.filter((m) => m.method === 'notifications/cancelled');
    const rows = await run('cancelled-requests');
    assert.equal(rows.length, cancellations.length);
    for (const c of cancellations) {
      const id = params(c)['requestId'];
      const request = messages.find(
        (m) => m.kind === 'request' && m.session === c.session && m.dir === c.dir && m.msg['id'] === id,
      );
      const row = rows.find((r) => r['cancellation'] === c.iri);
      assert.ok(row, c.iri);
      assert.equal(row['requestId'], String(id));
      assert.equal(row['reason'], params(c)['reason']);
      assert.equal(row['request'], request?.iri, c.iri);
      assert.equal(row['method'], request?.method);
      assert.equal(row['responded'], String(request?.response !== undefined));
      assert.equal(num(row['msAfterRequest']), request?.ts && c.ts ? msBetween(request.ts, c.ts) : undefined);
    }
    // The string id "7" is not the number 7 of the ping in the same session.
    const edge = rows.find((r) => r['session'] === corpus.sessionIri(edgeSession));
    assert.equal(edge?.['method'], 'tools/call');
  });

  it('progress-timeline: each progress notification with the request whose _meta.progressToken it carries', async () => {
    const notifications = messages.filter((m) => m.method === 'notifications/progress');
    const rows = await run('progress-timeline');
    assert.equal(rows.length, notifications.length);
    const token = (m: Message) => {
      const meta = params(m)['_meta'];
      return isJsonObject(meta) ? meta['progressToken'] : undefined;
    };
    for (const n of notifications) {
      const t = params(n)['progressToken'];
      const request = messages.find(
        (m) =>
          m.kind === 'request' &&
          m.session === n.session &&
          m.dir !== n.dir &&
          token(m) !== undefined &&
          token(m) === t,
      );
      const row = rows.find((r) => r['notification'] === n.iri);
      assert.ok(row, n.iri);
      assert.equal(row['progressToken'], String(t));
      assert.equal(row['request'], request?.iri, n.iri);
      assert.equal(num(row['progress']), params(n)['progress']);
      assert.equal(num(row['total']), params(n)['total']);
      assert.equal(num(row['msSinceRequest']), request?.ts && n.ts ? msBetween(request.ts, n.ts) : undefined);
    }
    // The token inside an rdf:JSON _meta (ping) is found too.
    assert.ok(rows.some((r) => r['progressToken'] === 'tok-1' && r['method'] === 'ping'));
    const one = await run('progress-timeline', { token: '49' });
    assert.equal(one.length, notifications.filter((n) => params(n)['progressToken'] === 49).length);
  });

  const checkResourcesRead = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, number[]>();
    for (const m of messages.filter((m) => m.method === 'resources/read' && m.kind === 'request' && keep(m))) {
      const info = clientInfoOf(m.session);
      const key = `${serverOf(m.session)}|${params(m)['uri']}|${info?.['name']}|${info?.['version']}`;
      const [reads, errors] = expected.get(key) ?? [0, 0];
      expected.set(key, [reads! + 1, errors! + (m.response?.kind === 'error' ? 1 : 0)]);
    }
    const rows = await run('resources-read', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['server']}|${r['uri']}|${r['client']}|${r['clientVersion']}`,
        (r) => [num(r['reads']), num(r['errors'])],
      ),
      expected,
    );
  };

  it('resources-read: reads per resource and client, with errors', async () => {
    await checkResourcesRead();
    const one = await run('resources-read', { uri: 'demo://resource/does-not-exist' });
    assert.deepEqual(
      one.map((r) => [r['uri'], num(r['errors'])]),
      [['demo://resource/does-not-exist', 1]],
    );
  });

  const checkPromptsFetched = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, number[]>();
    for (const m of messages.filter((m) => m.method === 'prompts/get' && m.kind === 'request' && keep(m))) {
      const args = params(m)['arguments'];
      const key = `${serverOf(m.session)}|${params(m)['name']}|${args === undefined ? '' : canonicalJson(args)}`;
      const [fetches, errors] = expected.get(key) ?? [0, 0];
      expected.set(key, [fetches! + 1, errors! + (m.response?.kind === 'error' ? 1 : 0)]);
    }
    const rows = await run('prompts-fetched', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['server']}|${r['prompt']}|${r['arguments']}`,
        (r) => [num(r['fetches']), num(r['errors'])],
      ),
      expected,
    );
  };

  it('prompts-fetched: fetches per prompt and arguments, with errors', () => checkPromptsFetched());

  it('server-requests: every server-to-client request with the answer, its details and latency', async () => {
    const requests = messages.filter((m) => m.kind === 'request' && m.dir === 's2c');
    // The method of the request that started each task: its response is a CreateTaskResult with the task.
    const startedBy = new Map<string, string>();
    for (const m of messages) {
      const task = result(m.response)?.['task'];
      if (m.kind === 'request' && isJsonObject(task) && typeof task['taskId'] === 'string')
        startedBy.set(task['taskId'], m.method!);
    }
    const rows = await run('server-requests');
    assert.equal(rows.length, requests.length);
    for (const m of requests) {
      const row = rows.find((r) => r['request'] === m.iri);
      assert.ok(row, m.iri);
      const answer = m.response;
      const res = result(answer);
      const error = answer && isJsonObject(answer.msg['error']) ? answer.msg['error'] : undefined;
      assert.equal(row['method'], m.method);
      assert.equal(row['outcome'], !answer ? 'none' : error ? 'error' : 'result', m.iri);
      assert.equal(row['answer'], answer?.iri);
      // The details MCP defines: the elicitation's action, the sampling model, the roots listed; tasks/result
      // (2025-11-25) answers like the request that started its task.
      const like =
        m.method === 'tasks/result' ? startedBy.get(String((m.msg['params'] as JsonObject)['taskId'])) : m.method;
      assert.equal(row['action'], like === 'elicitation/create' ? res?.['action'] : undefined, m.iri);
      assert.equal(row['model'], like === 'sampling/createMessage' ? res?.['model'] : undefined, m.iri);
      assert.equal(
        num(row['roots']),
        m.method === 'roots/list' && Array.isArray(res?.['roots']) ? (res!['roots'] as JsonValue[]).length : undefined,
        m.iri,
      );
      assert.equal(num(row['errorCode']), error?.['code'], m.iri);
      assert.equal(num(row['ms']), answer?.ts && m.ts ? msBetween(m.ts, answer.ts) : undefined, m.iri);
    }
    assert.ok(
      rows.some((r) => r['method'] === 'roots/list' && r['roots'] === '0'),
      'an empty roots list counts 0',
    );
  });

  const checkUnknownMethods = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, { messages: number; sessions: Set<string>; results: number; errors: number }>();
    for (const m of messages.filter(
      (m) => m.unknownMethod && (m.kind === 'request' || m.kind === 'notification') && keep(m),
    )) {
      const key = `${m.method}|${m.kind}|${m.dir}`;
      const e = expected.get(key) ?? { messages: 0, sessions: new Set(), results: 0, errors: 0 };
      e.messages++;
      e.sessions.add(m.session);
      if (m.response?.kind === 'result') e.results++;
      if (m.response?.kind === 'error') e.errors++;
      expected.set(key, e);
    }
    const rows = await run('unknown-methods', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['method']}|${r['kind']}|${direction(r['direction'])}`,
        (r) => [num(r['messages']), num(r['sessions']), num(r['results']), num(r['errors'])],
      ),
      new Map([...expected].map(([k, e]) => [k, [e.messages, e.sessions.size, e.results, e.errors]])),
    );
    return rows;
  };

  it('unknown-methods: methods the schema does not know, with answers and errors', async () => {
    const rows = await checkUnknownMethods();
    assert.ok(rows.some((r) => r['method'] === 'bogus/method'));
  });

  const checkUnknownKeys = async (values: ParameterValues = {}, keep: Keep = all) => {
    const byIri = new Map(messages.filter(keep).map((m) => [m.iri, m]));
    const occurrences = new Map<string, number>();
    const inMessages = new Map<string, Set<string>>();
    for (const q of corpus.quads) {
      if (!q.predicate.value.startsWith(ns.mldx)) continue;
      const iri = /^(.*\/message\/[0-9]+)(\/.*)?$/.exec(q.subject.value)?.[1];
      const method = iri ? byIri.get(iri)?.method : undefined;
      if (method === undefined) continue;
      const key = `${q.predicate.value}|${method}`;
      count(occurrences, key);
      inMessages.set(key, (inMessages.get(key) ?? new Set()).add(iri!));
    }
    const rows = await run('unknown-keys', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['predicate']}|${r['method']}`,
        (r) => [num(r['occurrences']), num(r['messages'])],
      ),
      new Map([...occurrences].map(([k, n]) => [k, [n, inMessages.get(k)!.size]])),
    );
  };

  it('unknown-keys: extension keys per method, counted from the lifted quads without SPARQL', async () => {
    await checkUnknownKeys();
    // And one key straight from the JSON: `task` in the params of tasks/get and tasks/result, which the SDK sends
    // but 2025-11-25 defines for neither (it does for tools/call, sampling and elicitation params).
    const tasks = new Map<string, number>();
    for (const m of messages) {
      const params = m.msg['params'];
      if ((m.method === 'tasks/get' || m.method === 'tasks/result') && isJsonObject(params) && 'task' in params)
        count(tasks, m.method);
    }
    assert.ok(tasks.size > 0);
    const taskRows = await run('unknown-keys', { key: 'task' });
    assert.deepEqual(
      keyed(
        taskRows,
        (r) => r['method']!,
        (r) => num(r['occurrences']),
      ),
      tasks,
    );
  });

  const checkValidationProblems = async (values: ParameterValues = {}, keep: Keep = all) => {
    const problems = new Map<string, number>();
    const inMessages = new Map<string, Set<string>>();
    for (const m of messages.filter(keep)) {
      for (const p of m.problems) {
        const key = `${m.method ?? ''}|${p.keyword}|${p.instancePath}|${p.schemaPath}`;
        count(problems, key);
        inMessages.set(key, (inMessages.get(key) ?? new Set()).add(m.iri));
      }
    }
    const rows = await run('validation-problems', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['method']}|${r['keyword']}|${r['instancePath']}|${r['schemaPath']}`,
        (r) => [num(r['problems']), num(r['messages'])],
      ),
      new Map([...problems].map(([k, n]) => [k, [n, inMessages.get(k)!.size]])),
    );
  };

  it('validation-problems: the lifter’s validation results per method, keyword and path', async () => {
    await checkValidationProblems();
    const typed = await run('validation-problems', { keyword: 'type' });
    assert.ok(typed.length > 0 && typed.every((r) => r['keyword'] === 'type'));
  });

  const checkProtocolVersions = async (values: ParameterValues = {}, keep: Keep = all) => {
    // A capture's session speaks one version: what its initialize settled on, else what its messages declare
    // (2026-07-28). (The OGC examples and the edge cases are plain messages of several versions in one session.)
    const expected = new Map<string, { sessions: Set<string>; messages: number }>();
    const captured = (session: string) => session !== ogcSession && session !== edgeSession;
    for (const m of messages.filter((m) => captured(m.session) && keep(m))) {
      const version = protocolVersionOf(m.session) ?? '2025-06-18';
      const key = `${version}|${clientInfoOf(m.session)?.['name']}|${serverInfoOf(m.session)?.['name']}`;
      const entry = expected.get(key) ?? { sessions: new Set(), messages: 0 };
      entry.sessions.add(m.session);
      entry.messages++;
      expected.set(key, entry);
    }
    const rows = await run('protocol-versions', values);
    const clients = new Set([...expected.keys()].map((key) => key.split('|')[1]!));
    assert.deepEqual(
      keyed(
        rows.filter((r) => clients.has(r['client'] ?? '')),
        (r) => `${r['version']}|${r['client']}|${r['server']}`,
        (r) => [num(r['sessions']), num(r['messages'])],
      ),
      new Map([...expected].map(([k, e]) => [k, [e.sessions.size, e.messages]])),
    );
    return rows;
  };

  it('protocol-versions: sessions and messages per protocol version, client and server', async () => {
    const rows = await checkProtocolVersions();
    assert.deepEqual([...new Set(rows.map((r) => r['version']))].sort(), [
      '2024-11-05',
      '2025-03-26',
      '2025-06-18',
      '2025-11-25',
      '2026-07-28',
    ]);
    assert.deepEqual(
      (await run('protocol-versions', { version: '2026-07-28' })).map((r) => r['server']),
      ['field-notes'],
    );
  });

  it('mrtr-rounds: every operation that needed input, with its rounds, attempts, outcome and total latency', async () => {
    // From the JSON alone: a request answered with resultType input_required opens (or continues) an operation; the
    // next request of the same method, target and arguments that carries inputResponses continues it; any other
    // answer ends it.
    const targetOf = (m: Message) =>
      `${m.session}|${m.method}|${params(m)['name'] ?? params(m)['uri']}|${canonicalJson((params(m)['arguments'] as JsonValue) ?? null)}`;
    const open = new Map<string, { first: Message; asks: number; attempts: number }>();
    const expected = new Map<string, JsonValue[]>();
    for (const m of messages.filter((m) => m.kind === 'request' && m.response !== undefined)) {
      const target = targetOf(m);
      let operation = 'inputResponses' in params(m) ? open.get(target) : undefined;
      const asked = result(m.response)?.['resultType'] === 'input_required';
      if (operation === undefined && !asked) continue;
      operation ??= { first: m, asks: 0, attempts: 0 };
      operation.attempts++;
      const row = (outcome: string | undefined, end?: Message): JsonValue[] => [
        operation!.asks,
        operation!.attempts,
        outcome ?? null,
        end?.ts && operation!.first.ts ? msBetween(operation!.first.ts, end.ts) : null,
      ];
      if (asked) {
        operation.asks++;
        open.set(target, operation);
        expected.set(operation.first.iri, row(undefined));
      } else {
        open.delete(target);
        const outcome =
          m.response!.kind === 'error' ? 'error' : result(m.response)?.['isError'] === true ? 'tool-error' : 'complete';
        expected.set(operation.first.iri, row(outcome, m.response));
      }
    }
    assert.ok(expected.size >= 9);
    const rows = await run('mrtr-rounds');
    const got = keyed(
      rows,
      (r) => r['operation']!.replace(/\/operation$/, ''),
      (r) => [num(r['inputRounds'])!, num(r['attempts'])!, r['outcome'] ?? null, num(r['totalMs']) ?? null],
    );
    assert.deepEqual(got, expected);
    assert.ok(rows.every((r) => r['target'] !== undefined && r['session'] !== undefined));
    for (const row of rows)
      assert.equal(
        row['server'],
        serverOf(messages.find((m) => m.iri === row['operation']!.replace(/\/operation$/, ''))!.session),
        row['operation'],
      );
    assert.deepEqual(
      [...new Set((await run('mrtr-rounds', { method: 'prompts/get' })).map((r) => r['method']))],
      ['prompts/get'],
    );
  });

  const checkErrors = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, number>();
    for (const m of messages.filter((m) => m.kind === 'error' && keep(m)))
      count(expected, `${(m.msg['error'] as JsonObject)['code']}|${m.method ?? ''}`);
    const rows = await run('errors', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['code']}|${r['method']}`,
        (r) => num(r['errors']),
      ),
      expected,
    );
    // The example is the group's first message in code point order: the same on every store.
    const texts = new Map<string, string[]>();
    for (const m of messages.filter((m) => m.kind === 'error' && keep(m))) {
      const error = m.msg['error'] as JsonObject;
      if (typeof error['message'] === 'string')
        texts.set(`${error['code']}|${m.method ?? ''}`, [
          ...(texts.get(`${error['code']}|${m.method ?? ''}`) ?? []),
          error['message'],
        ]);
    }
    const byCodePoint = (a: string, b: string) => {
      const [x, y] = [[...a], [...b]];
      for (let i = 0; i < Math.min(x.length, y.length); i++)
        if (x[i] !== y[i]) return x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
      return x.length - y.length;
    };
    for (const r of rows)
      assert.equal(
        r['exampleMessage'],
        texts.get(`${r['code']}|${r['method']}`)?.sort(byCodePoint)[0],
        `${r['code']}|${r['method']}`,
      );
  };

  it('errors: error responses per code and method', async () => {
    await checkErrors();
    const notFound = await run('errors', { code: -32601 });
    const methodsNotFound = [
      ...new Set(
        messages
          .filter((m) => m.kind === 'error' && (m.msg['error'] as JsonObject)['code'] === -32601)
          .map((m) => m.method),
      ),
    ];
    assert.ok(methodsNotFound.includes('bogus/method'));
    assert.deepEqual(notFound.map((r) => r['method']).sort(), methodsNotFound.sort());
  });

  const checkMessagesPerMethod = async (values: ParameterValues = {}, keep: Keep = all) => {
    const expected = new Map<string, number>();
    for (const m of messages.filter(keep)) count(expected, `${m.method ?? ''}|${m.kind}|${m.dir}`);
    const rows = await run('messages-per-method', values);
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['method']}|${r['kind']}|${direction(r['direction'])}`,
        (r) => num(r['messages']),
      ),
      expected,
    );
  };

  it('messages-per-method: messages per method, kind and direction', () => checkMessagesPerMethod());

  it('tool-inventory: tools offered by tools/list and calls per tool', async () => {
    const expected = new Map<string, [boolean, number]>();
    for (const m of messages) {
      const tools = m.method === 'tools/list' && m.kind === 'result' ? result(m)?.['tools'] : undefined;
      if (Array.isArray(tools))
        for (const t of tools) expected.set(`${serverOf(m.session)}|${(t as JsonObject)['name']}`, [true, 0]);
    }
    for (const m of messages.filter((m) => m.method === 'tools/call' && m.kind === 'request')) {
      const key = `${serverOf(m.session)}|${params(m)['name']}`;
      const [offered, calls] = expected.get(key) ?? [false, 0];
      expected.set(key, [offered, calls + 1]);
    }
    const rows = await run('tool-inventory');
    assert.deepEqual(
      keyed(
        rows,
        (r) => `${r['server']}|${r['tool']}`,
        (r) => [r['offered'] === 'true', num(r['calls'])],
      ),
      expected,
    );
  });

  /** Every tool description of every tools/list answer, with the server, the answer and its time. */
  const listings = () =>
    messages.flatMap((m) => {
      const tools = m.method === 'tools/list' && m.kind === 'result' ? result(m)?.['tools'] : undefined;
      return Array.isArray(tools)
        ? tools.filter(isJsonObject).map((tool) => ({ server: serverOf(m.session), message: m, tool }))
        : [];
    });
  const types = (text: string | undefined) => (text ?? '').split(' ').filter(Boolean).sort().join(' ');

  it('tool-parameters: the input parameters of every tool per server, with JSON type and whether required', async () => {
    const expected = new Set<string>();
    for (const { server, tool } of listings()) {
      const schema = isJsonObject(tool['inputSchema']) ? tool['inputSchema'] : {};
      const required = Array.isArray(schema['required']) ? schema['required'] : [];
      const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
      for (const [name, property] of Object.entries(properties)) {
        if (!isJsonObject(property)) continue;
        const type = property['type'];
        const typeText =
          typeof type === 'string'
            ? type
            : Array.isArray(type)
              ? type
                  .filter((t) => typeof t === 'string')
                  .sort()
                  .join(' ')
              : '';
        expected.add(`${server}|${tool['name']}|${name}|${typeText}|${required.includes(name)}`);
      }
    }
    const rows = await run('tool-parameters');
    const got = rows.map((r) => `${r['server']}|${r['tool']}|${r['name']}|${types(r['type'])}|${r['required']}`);
    assert.equal(got.length, new Set(got).size, 'no row twice');
    assert.deepEqual(new Set(got), expected);
    assert.ok(expected.size >= 40, `${expected.size} parameters`);
    // Which tools take a `path` parameter: grep (whose path became required: a row each way) and stat.
    const path = await run('tool-parameters', { name: 'path' });
    assert.deepEqual(
      new Set(path.map((r) => `${r['server']}|${r['tool']}|${r['name']}|${types(r['type'])}|${r['required']}`)),
      new Set([...expected].filter((k) => k.split('|')[2] === 'path')),
    );
    assert.deepEqual(
      path.filter((r) => r['server'] === 'edge').map((r) => [r['tool'], types(r['type']), r['required']]),
      [
        ['grep', 'null string', 'false'],
        ['grep', 'null string', 'true'],
        ['stat', 'string', 'true'],
      ],
    );
  });

  it('tool-schema-changes: tools whose inputSchema or outputSchema differ between consecutive tools/list answers', async () => {
    const byTool = new Map<string, ReturnType<typeof listings>>();
    for (const listing of listings()) {
      if (!listing.message.ts) continue;
      const key = `${listing.server}|${listing.tool['name']}`;
      byTool.set(key, [...(byTool.get(key) ?? []), listing]);
    }
    const expected = new Set<string>();
    const schemaText = (value: JsonValue | undefined) => (value === undefined ? '' : canonicalJson(value));
    for (const [key, list] of byTool) {
      list.sort((a, b) => Date.parse(a.message.ts!) - Date.parse(b.message.ts!));
      for (let i = 1; i < list.length; i++) {
        const [a, b] = [list[i - 1]!, list[i]!];
        const changed = (['inputSchema', 'outputSchema'] as const).filter(
          (k) => schemaText(a.tool[k]) !== schemaText(b.tool[k]),
        );
        if (changed.length > 0)
          expected.add(
            `${key}|${changed.join(' ')}|${a.message.iri}|${Date.parse(a.message.ts!)}|${b.message.iri}|${Date.parse(b.message.ts!)}`,
          );
      }
    }
    const rows = await run('tool-schema-changes');
    const got = rows.map(
      (r) =>
        `${r['server']}|${r['tool']}|${r['changed']}|${r['before']}|${time(r['beforeTime'])}|${r['after']}|${time(r['afterTime'])}`,
    );
    assert.equal(got.length, new Set(got).size, 'no row twice');
    assert.deepEqual(new Set(got), expected);
    // The edge session's: grep's input and stat's output, both between the first two answers, none after the
    // reordering.
    assert.deepEqual(
      rows.filter((r) => r['server'] === 'edge').map((r) => [r['tool'], r['changed']]),
      [
        ['grep', 'inputSchema'],
        ['stat', 'outputSchema'],
      ],
    );
    assert.deepEqual(
      (await run('tool-schema-changes', { tool: 'stat' })).map((r) => r['tool']),
      ['stat'],
    );
  });

  it('structured-errors: tools/call results with isError true that carry structuredContent', async () => {
    const expected = messages
      .filter(
        (m) =>
          m.method === 'tools/call' &&
          m.kind === 'result' &&
          result(m)?.['isError'] === true &&
          result(m)?.['structuredContent'] !== undefined,
      )
      .map((m) => [
        serverOf(m.session),
        corpus.sessionIri(m.session),
        params(m.request!)['name'],
        time(m.ts),
        m.request!.iri,
        m.iri,
        canonicalJson(result(m)!['structuredContent']!),
      ]);
    const rows = await run('structured-errors');
    assert.deepEqual(
      rows.map((r) => [
        r['server'],
        r['session'],
        r['tool'],
        time(r['time']),
        r['call'],
        r['response'],
        r['structuredContent'],
      ]),
      expected,
    );
    assert.deepEqual(
      expected.map((e) => e[2]),
      ['stat'],
    );
    // isError results without structured content (field-notes has four) are not among them.
    assert.ok(
      messages.some(
        (m) =>
          m.method === 'tools/call' &&
          result(m)?.['isError'] === true &&
          result(m)?.['structuredContent'] === undefined,
      ),
    );
    assert.deepEqual(await run('structured-errors', { tool: 'grep' }), []);
  });

  it('session-timeline: the messages of one session in order', async () => {
    const own = messages.filter((m) => m.session === edgeSession);
    const rows = await run('session-timeline', { session: edgeSession });
    assert.deepEqual(
      rows.map((r) => [
        num(r['order']),
        direction(r['direction']),
        r['kind'],
        r['method'],
        r['id'],
        num(r['errorCode']),
        r['message'],
      ]),
      own.map((m) => [
        m.order,
        m.dir,
        m.kind,
        m.method ?? '',
        m.msg['id'] === undefined ? undefined : String(m.msg['id']),
        isJsonObject(m.msg['error']) ? m.msg['error']['code'] : undefined,
        m.iri,
      ]),
    );
    const limited = await run('session-timeline', { session: ogcSession, limit: 3 });
    assert.equal(limited.length, 3);
  });

  it('task-status: every status report of a task', async () => {
    const expected = new Map<string, number>();
    const report = (m: Message, node: JsonValue | undefined, label: string) => {
      if (isJsonObject(node) && typeof node['taskId'] === 'string' && typeof node['status'] === 'string')
        count(expected, `${node['taskId']}|${node['status']}|${label}`);
    };
    for (const m of messages) {
      if (m.kind === 'notification' || m.kind === 'request') report(m, m.msg['params'], m.method!);
      const res = result(m);
      if (m.kind === 'result' && res && m.method) {
        const label = `${m.method} (result)`;
        report(m, res, label);
        report(m, res['task'], label);
        if (Array.isArray(res['tasks'])) for (const t of res['tasks']) report(m, t, label);
      }
    }
    const rows = await run('task-status');
    const got = new Map<string, number>();
    for (const r of rows) count(got, `${r['taskId']}|${r['status']}|${r['method']}`);
    assert.deepEqual(got, expected);
  });

  // Two windows: by dates (all of 2026-01-01 to 2026-11-29: the edge cases and the 2025-11-25 capture, not the captures
  // of 2026-12-01), and by date-times (a zone named and not) that cut one capture in two and keep another whole.
  /** The overview's one row against the messages `keep` keeps (answers: by their request's time). */
  const checkOverview = async (values: ParameterValues = {}, keep: Keep = all) => {
    const [row] = await run('overview', values);
    const kept = messages.filter(keep);
    const sessions = [...new Set(kept.map((m) => m.session))];
    const requests = kept.filter((m) => m.kind === 'request');
    const answered = requests.filter((m) => m.response);
    const rpcErrors = answered.filter((m) => m.response!.kind === 'error').length;
    const toolErrors = answered.filter((m) => result(m.response)?.['isError'] === true).length;
    const times = kept.flatMap((m) => (m.ts ? [Date.parse(m.ts)] : []));
    const defined = <T>(list: (T | undefined)[]) => new Set(list.filter((v): v is T => v !== undefined)).size;
    assert.deepEqual(
      [
        num(row!['messages']),
        num(row!['sessions']),
        num(row!['servers']),
        num(row!['clients']),
        num(row!['requests']),
        num(row!['answered']),
        num(row!['rpcErrors']),
        num(row!['toolErrors']),
        time(row!['firstMessage']),
        time(row!['lastMessage']),
      ],
      [
        kept.length,
        sessions.length,
        defined(sessions.map(serverOf)),
        defined(sessions.map((id) => clientInfoOf(id)?.['name'] as string | undefined)),
        requests.length,
        answered.length,
        rpcErrors,
        toolErrors,
        times.length ? Math.min(...times) : undefined,
        times.length ? Math.max(...times) : undefined,
      ],
    );
    assert.ok(
      Math.abs(num(row!['errorRate'])! - (answered.length ? (rpcErrors + toolErrors) / answered.length : 0)) < 1e-9,
    );
  };

  it('overview: messages, sessions, servers, clients, requests, answers and their errors, first and last message', () =>
    checkOverview());

  /** The activity per minute against the messages `keep` keeps: messages by their time, answers by their request's. */
  const checkActivity = async (values: ParameterValues = {}, keep: Keep = all) => {
    const rows = await run('activity', { ...values, bucket: 'minute' });
    const minute = (ts: string) => new Date(ts).toISOString().slice(0, 16);
    const periods = new Map<string, { messages: number; answered: number; errors: number; latencies: number[] }>();
    const entry = (ts: string) =>
      periods.get(minute(ts)) ??
      periods.set(minute(ts), { messages: 0, answered: 0, errors: 0, latencies: [] }).get(minute(ts))!;
    for (const m of messages.filter((m) => m.ts && keep(m))) {
      entry(m.ts!).messages++;
      if (m.kind === 'request' && m.response) {
        const e = entry(m.ts!);
        e.answered++;
        if (m.response.kind === 'error' || result(m.response)?.['isError'] === true) e.errors++;
        if (m.response.ts) e.latencies.push(msBetween(m.ts!, m.response.ts));
      }
    }
    assert.deepEqual(
      rows.map((r) => [
        r['period'],
        num(r['messages']),
        num(r['answered']),
        num(r['rpcErrors'])! + num(r['toolErrors'])!,
        num(r['p50Ms']),
        num(r['p95Ms']),
      ]),
      [...periods]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([p, e]) => [
          p,
          e.messages,
          e.answered,
          e.errors,
          e.latencies.length ? percentileOf(e.latencies, 50) : undefined,
          e.latencies.length ? percentileOf(e.latencies, 95) : undefined,
        ]),
    );
    assert.deepEqual(
      (await run('activity', { ...values, bucket: 'day' })).map((r) => r['period']),
      [...new Set([...periods.keys()].map((p) => p.slice(0, 10)))].sort(),
    );
    assert.deepEqual(await run('activity', { ...values, bucket: 'week' }), [], 'an unknown bucket gives no rows');
  };

  it('activity: messages, answers, errors and p50/p95 latency per minute, hour or day', () => checkActivity());

  it('session-list: a sorted, filtered page of the sessions, with their errors', async () => {
    const sessions = await run('sessions');
    const listed = await run('session-list', { limit: 1000 });
    const errorsOf = (id: string) =>
      messages.filter(
        (m) => m.session === id && (m.kind === 'error' || (m.kind === 'result' && result(m)?.['isError'] === true)),
      ).length;
    assert.deepEqual(
      listed.map((r) => [
        r['sessionId'],
        r['server'],
        r['client'],
        r['protocolVersion'],
        num(r['messages']),
        num(r['errors']),
        r['firstMessage'],
        r['lastMessage'],
      ]),
      sessions.map((r) => [
        r['sessionId'],
        r['server'],
        r['client'],
        r['protocolVersion'],
        num(r['messages']),
        errorsOf(r['sessionId']!),
        r['firstMessage'],
        r['lastMessage'],
      ]),
      "by start (the sessions query's order), every session with its errors counted from the JSON",
    );
    const byMessages = await run('session-list', { sort: 'messages', descending: true, limit: 1000 });
    assert.deepEqual(
      byMessages.map((r) => num(r['messages'])),
      listed.map((r) => num(r['messages'])!).sort((a, b) => b - a),
    );
    const byErrors = await run('session-list', { sort: 'errors', limit: 1000 });
    assert.deepEqual(
      byErrors.map((r) => num(r['errors'])),
      listed.map((r) => num(r['errors'])!).sort((a, b) => a - b),
    );
    const page = await run('session-list', { limit: 2, offset: 2 });
    assert.deepEqual(
      page.map((r) => r['sessionId']),
      listed.slice(2, 4).map((r) => r['sessionId']),
    );
    assert.deepEqual(
      (await run('session-list', { filterServer: 'edge', limit: 1000 })).map((r) => r['sessionId']),
      [edgeSession],
    );
    assert.deepEqual(
      (await run('session-list', { search: 'EDGE-CL', limit: 1000 })).map((r) => r['sessionId']),
      [edgeSession],
      'the client, ignoring case',
    );
    const facets = await run('session-facets');
    assert.equal(
      facets.reduce((n, r) => n + num(r['sessions'])!, 0),
      sessions.length,
    );
  });

  it("session-summary: one session's row of session-list, for every session", async () => {
    const listed = await run('session-list', { limit: 1000 });
    assert.ok(listed.length > 3);
    for (const row of listed) {
      const summary = await run('session-summary', { session: row['sessionId']! });
      assert.deepEqual(summary, [row], `session ${row['sessionId']}`);
    }
    assert.deepEqual(await run('session-summary', { session: 'no-such-session' }), []);
  });

  it('failures: every error response and isError result, in groups that add up', async () => {
    const rows = await run('failures');
    const errors = messages.filter((m) => m.kind === 'error').length;
    const toolErrors = messages.filter((m) => m.kind === 'result' && result(m)?.['isError'] === true).length;
    const total = (kind: string) => rows.filter((r) => r['kind'] === kind).reduce((n, r) => n + num(r['failures'])!, 0);
    assert.deepEqual([total('error'), total('tool-error')], [errors, toolErrors]);
    for (const r of rows) {
      const example = messages.find((m) => m.session === r['exampleSession'] && m.order === num(r['exampleOrder']));
      assert.ok(example, `${r['exampleSession']} #${r['exampleOrder']}`);
      if (r['kind'] === 'error') assert.equal((example.msg['error'] as JsonObject)['message'], r['message']);
      else assert.equal(result(example)?.['isError'], true);
    }
  });

  it("tool-latency-histogram: each tool's answers spread over latency ranges, adding up to its answers", async () => {
    const latency = await run('tool-latency');
    const histogram = await run('tool-latency-histogram');
    const sums = new Map<string, number>();
    for (const r of histogram) count(sums, `${r['server']}|${r['tool']}`, num(r['answered']));
    assert.deepEqual(sums, new Map(latency.map((r) => [`${r['server']}|${r['tool']}`, num(r['answered'])!])));
    for (const r of latency) {
      const ranges = histogram
        .filter((h) => h['server'] === r['server'] && h['tool'] === r['tool'])
        .map((h) => num(h['upToMs']) ?? Infinity);
      assert.ok(
        num(r['maxMs'])! < ranges[ranges.length - 1]! && num(r['minMs'])! < ranges[0]!,
        `${r['tool']}: ${ranges}`,
      );
    }
  });

  it('session-timeline: a response names the request it answers and its latency; a page starts at `from`', async () => {
    const own = messages.filter((m) => m.session === edgeSession);
    const rows = await run('session-timeline', { session: edgeSession });
    assert.deepEqual(
      rows.map((r) => [num(r['answers']), num(r['latencyMs'])]),
      own.map((m) =>
        m.request
          ? [m.request.order, m.ts && m.request.ts ? msBetween(m.request.ts, m.ts) : undefined]
          : [undefined, undefined],
      ),
    );
    assert.equal(
      num(rows.find((r) => r['method'] === 'notifications/progress')!['progressOf']),
      own.find((m) => m.method === 'ping' && m.kind === 'request')!.order,
    );
    assert.deepEqual(
      (await run('session-timeline', { session: edgeSession, from: own[5]!.order, limit: 3 })).map((r) =>
        num(r['order']),
      ),
      own.slice(5, 8).map((m) => m.order),
    );
  });

  const windows = [
    { values: { since: '2026-01-01', until: '2026-11-29' }, from: '2026-01-01T00:00:00Z', to: '2026-11-30T00:00:00Z' },
    {
      values: { since: '2026-11-29T22:56:10Z', until: '2026-12-01T17:40:40' },
      from: '2026-11-29T22:56:10Z',
      to: '2026-12-01T17:40:40Z',
    },
  ];
  const inWindow =
    ({ from, to }: { from: string; to: string }): Keep =>
    (m) =>
      m.ts !== undefined && Date.parse(m.ts) >= Date.parse(from) && Date.parse(m.ts) < Date.parse(to);
  // The queries whose figures count messages by their time, each checked against the JSON of the messages in the
  // window.
  const windowChecks: Record<string, (values: ParameterValues, keep: Keep) => Promise<unknown>> = {
    sessions: checkSessions,
    overview: checkOverview,
    activity: checkActivity,
    'tool-calls': checkToolCalls,
    'tool-errors': checkToolErrors,
    'tool-latency': checkToolLatency,
    'latency-by-method': checkLatencyByMethod,
    'slowest-requests': checkSlowest,
    'resources-read': checkResourcesRead,
    'prompts-fetched': checkPromptsFetched,
    'unknown-methods': checkUnknownMethods,
    'unknown-keys': checkUnknownKeys,
    'validation-problems': checkValidationProblems,
    'protocol-versions': checkProtocolVersions,
    errors: checkErrors,
    'messages-per-method': checkMessagesPerMethod,
  };
  // The queries that list things with a time: in a window, exactly the rows (in order) whose time is in it.
  const timeColumns: Record<string, string> = {
    'cancelled-requests': 'cancelledAt',
    'progress-timeline': 'at',
    'server-requests': 'requestedAt',
    'mrtr-rounds': 'started',
    'task-status': 'at',
    'structured-errors': 'time',
    'tool-schema-changes': 'afterTime',
    'session-timeline': 'at',
  };

  it('since and until (a date, or a date-time) narrow every query with a time dimension to what happened in the window', async () => {
    const windowed = named
      .list()
      .filter((q) => q.parameters.some((p) => p.name === 'since') && q.parameters.some((p) => p.name === 'until'));
    assert.deepEqual(
      windowed.map((q) => q.name).sort(),
      [...Object.keys(windowChecks), ...Object.keys(timeColumns)].sort(),
      'every query with a window is checked here',
    );
    for (const q of windowed)
      assert.deepEqual(
        q.parameters.filter((p) => p.name === 'since' || p.name === 'until').map((p) => p.type),
        ['start-time', 'end-time'],
        q.name,
      );
    for (const window of windows) {
      const keep = inWindow(window);
      // Not a trivial window: it keeps some messages of the corpus and drops others.
      assert.ok(messages.some(keep) && messages.some((m) => m.ts !== undefined && !keep(m)));
      for (const [name, check] of Object.entries(windowChecks)) {
        try {
          await check(window.values, keep);
        } catch (error) {
          throw new Error(`${name} ${JSON.stringify(window.values)}: ${(error as Error).message}`);
        }
      }
      let [kept, dropped] = [0, 0];
      for (const [name, column] of Object.entries(timeColumns)) {
        const values = name === 'session-timeline' ? { session: '57cd8539-bf6a-4833-ae14-361ffa3a23c9' } : {};
        const whole = await run(name, values);
        const inside = (row: Row) =>
          row[column] !== undefined &&
          Date.parse(row[column]!) >= Date.parse(window.from) &&
          Date.parse(row[column]!) < Date.parse(window.to);
        assert.deepEqual(
          await run(name, { ...values, ...window.values }),
          whole.filter(inside),
          `${name} ${JSON.stringify(window.values)}`,
        );
        kept += whole.filter(inside).length;
        dropped += whole.length - whole.filter(inside).length;
      }
      assert.ok(
        kept > 10 && dropped > 10,
        `the listings keep ${kept} rows and drop ${dropped} of ${JSON.stringify(window.values)}`,
      );
    }
  });

  it('every query about tools (or that names the tool a request called) names the server too', async () => {
    const about: string[] = [];
    for (const q of named.list()) {
      const answer = await named.run(
        corpus.store,
        q.name,
        q.parameters.some((p) => p.name === 'session') ? { session: edgeSession } : {},
      );
      assert.ok(answer.form === 'SELECT');
      if (q.name.startsWith('tool-') || answer.variables.includes('tool') || /\btools?\b/.test(q.title)) {
        about.push(q.name);
        assert.ok(answer.variables.includes('server'), `${q.name} selects ${answer.variables.join(', ')}`);
      }
    }
    assert.deepEqual(about.sort(), [
      'failures',
      'structured-errors',
      'tool-calls',
      'tool-errors',
      'tool-inventory',
      'tool-latency',
      'tool-latency-histogram',
      'tool-parameters',
      'tool-schema-changes',
    ]);
  });

  it('every named query runs on one session only (--session), and gives a subset there', async () => {
    // Each query is run on every session of the corpus: no row may name another session, and at least one session
    // must give rows, or the query was not tested here at all.
    const sessions = [...new Set(corpus.messages.map((m) => m.session))];
    for (const q of named.list()) {
      let answered = 0;
      for (const session of sessions) {
        const iri = corpus.sessionIri(session);
        const values = q.parameters.some((p) => p.name === 'session') ? { session } : {};
        const answer = rowsOf(await named.run(corpus.store, q.name, values, { session: iri }));
        if (answer.length > 0) answered += 1;
        for (const row of answer) {
          for (const [name, value] of Object.entries(row)) {
            if (value?.startsWith('urn:mcp-ld:session/'))
              assert.ok(
                value === iri || value.startsWith(`${iri}/`),
                `${q.name}: ${name} = ${value} is outside the session ${session}`,
              );
          }
        }
      }
      assert.ok(answered > 0, `${q.name} gives no row on any one session of the corpus`);
    }
    const graph = corpus.sessionIri(ogcSession);
    const calls = rowsOf(await named.run(corpus.store, 'tool-calls', {}, { session: graph }));
    assert.deepEqual(
      calls.map((r) => [r['tool'], r['calls']]),
      [['get_weather', '1']],
    );
  });
});
