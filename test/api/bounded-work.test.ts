// The attacks of issue 14, item 5, each against a real `mcp-ld serve`, with /health probed all the while: no request
// may hold up the service (the slowest /health answer is measured and must stay under 100 ms, with some slack for what
// a loaded machine adds, see assertHealthy), none may crash it, and none may get a 500.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type Service } from '../helpers/service.js';
import { trafficFile } from '../helpers/corpus.js';

const healthBudgetMs = 100;

interface Probed<T> {
  result: T;
  /** The slowest /health answer while the attack ran, how many were asked, and the slowest before it (idle). */
  maxMs: number;
  probes: number;
  idleMaxMs: number;
}

const proberScript = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'health-probe.js');

/** A prober process (health-probe.ts) asking `url`/health until `stop`, which resolves with the time of each answer. */
async function prober(url: string): Promise<{ stop: () => Promise<number[]> }> {
  const child = spawn(process.execPath, [proberScript, url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const exited = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the prober exited with ${code}`)))),
  );
  await new Promise<void>((resolve) =>
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      if (output.startsWith('ready\n')) resolve();
    }),
  );
  return {
    stop: async () => {
      child.stdin.end('stop\n');
      await exited;
      return JSON.parse(output.slice('ready\n'.length)) as number[];
    },
  };
}

/** Runs `attack` while /health is probed from another process, after probing the idle service for a moment. */
async function probingHealth<T>(url: string, attack: () => Promise<T>): Promise<Probed<T>> {
  const idleProber = await prober(url);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const idle = await idleProber.stop();
  const attackProber = await prober(url);
  let result: T;
  try {
    result = await attack();
  } catch (error) {
    await attackProber.stop().catch(() => undefined);
    throw error;
  }
  const latencies = await attackProber.stop();
  return { result, maxMs: Math.max(...latencies), probes: latencies.length, idleMaxMs: Math.max(...idle) };
}

function assertHealthy(probed: Probed<unknown>, what: string): void {
  console.log(
    `      ${what}: /health answered ${probed.probes} times, the slowest in ${probed.maxMs.toFixed(1)} ms (idle before: ${probed.idleMaxMs.toFixed(1)} ms)`,
  );
  assert.ok(probed.probes >= 3, `${what}: /health was asked only ${probed.probes} times`);
  // The slack: 50 ms, or what the machine adds to the idle service (at most 100 ms). Busy threads of the service and a
  // loaded 2-core machine delay the event loop by tens of milliseconds now and then; a held event loop shows as
  // seconds.
  // On a machine busier than its cores (other processes runnable: a shared 2-core VM), tens of milliseconds become
  // hundreds; the budget there is 500 ms, said so, which still catches any freeze (item 5's were 6 to 240 s).
  const busy = os.loadavg()[0]! / os.cpus().length > 1;
  if (busy)
    console.warn(
      `      the machine is busier than its cores (load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length}): /health budget 500 ms`,
    );
  const budget = busy ? 500 : healthBudgetMs + Math.max(50, Math.min(probed.idleMaxMs, 100));
  assert.ok(
    probed.maxMs < budget,
    `${what}: /health took ${probed.maxMs.toFixed(0)} ms (budget ${budget.toFixed(0)} ms)`,
  );
}

async function sparql(
  url: string,
  query: string,
  accept = 'application/sparql-results+json',
): Promise<{ status: number; body: { code?: string; detail?: string }; headers: Headers }> {
  const response = await fetch(`${url}/sparql`, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-query', accept },
    body: query,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {},
    headers: response.headers,
  };
}

async function ingestCorpus(url: string): Promise<void> {
  const response = await fetch(`${url}/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: readFileSync(trafficFile),
  });
  assert.equal(response.status, 200);
  await response.arrayBuffer();
}

const nestedGroups = (n: number) => 'SELECT * WHERE ' + '{'.repeat(n) + ' ?s ?p ?o ' + '}'.repeat(n);
const runaway = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';

describe('api: no request holds up the service (issue 14, item 5)', function () {
  this.timeout(180_000);
  let service: Service;

  afterEach(() => service?.child.kill('SIGKILL'));

  it('ingesting a message with 40,000 argument keys, GET /sessions/k40 as JSON and POST /convert of it take seconds at most, and /health answers in time meanwhile', async () => {
    service = await startService();
    const args: Record<string, string> = {};
    for (let i = 0; i < 40_000; i++) args[`k${i}`] = `v${i}`;
    const msg = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wide', arguments: args } };
    const ingested = await probingHealth(service.url, async () => {
      const response = await fetch(`${service.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-ld-session': 'k40' },
        body: JSON.stringify(msg),
      });
      await response.arrayBuffer();
      return response.status;
    });
    assert.equal(ingested.result, 200);
    assertHealthy(ingested, 'POST /ingest of the message (25 MB of N-Quads)');
    const probed = await probingHealth(service.url, async () => {
      const started = performance.now();
      const response = await fetch(`${service.url}/sessions/k40`, { headers: { accept: 'application/json' } });
      const records = (await response.json()) as { msg: typeof msg }[];
      return { status: response.status, records, ms: performance.now() - started };
    });
    assert.equal(probed.result.status, 200);
    assert.deepEqual(probed.result.records[0]!.msg, msg);
    assert.ok(
      probed.result.ms < 15_000,
      `the session took ${Math.round(probed.result.ms)} ms (20 s before lowering was linear)`,
    );
    assertHealthy(probed, 'GET /sessions/k40');
    const converted = await probingHealth(service.url, async () => {
      const response = await fetch(`${service.url}/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/n-quads' },
        body: JSON.stringify(msg),
      });
      await response.arrayBuffer();
      return response.status;
    });
    assert.equal(converted.result, 200);
    assertHealthy(converted, 'POST /convert of the same message');
  });

  it('refuses deeply nested SPARQL at once (400 naming the limit) and /health answers in time: 4,000 and 20,000 braces, 2,000 parentheses', async () => {
    service = await startService([], { MCPLD_WRITE_TOKEN: 'token' });
    const attacks = [
      nestedGroups(4000),
      nestedGroups(20_000),
      'SELECT * WHERE { ?s ?p ?o FILTER(' + '('.repeat(2000) + '?o' + ')'.repeat(2000) + ') }',
    ];
    const probed = await probingHealth(service.url, async () => {
      const answers = [];
      for (let round = 0; round < 10; round++)
        for (const query of attacks) answers.push(await sparql(service.url, query));
      return answers;
    });
    for (const answer of probed.result) {
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'query.too-deep');
      assert.match(answer.body.detail!, /MCPLD_MAX_QUERY_DEPTH/);
    }
    assertHealthy(probed, '30 deeply nested queries');
    const update = await fetch(`${service.url}/sparql`, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-update', authorization: 'Bearer token' },
      body:
        'INSERT { GRAPH <urn:g> { ?s ?p ?o } } WHERE ' +
        '{'.repeat(4000) +
        ' GRAPH ?g { ?s ?p ?o } ' +
        '}'.repeat(4000),
    });
    assert.deepEqual([update.status, ((await update.json()) as { code: string }).code], [400, 'update.too-deep']);
    assert.equal((await sparql(service.url, 'ASK { ?s ?p ?o }')).status, 200);
  });

  it("refuses what would crash the store's engine (400 too-complex) and a text past the size limit (413); never a 500", async () => {
    service = await startService([], { MCPLD_MAX_QUERY_BYTES: '100000' });
    await ingestCorpus(service.url);
    const killers = [
      'SELECT * WHERE { ?s ?p ?o' + ' OPTIONAL { ?s ?p ?o }'.repeat(1000) + ' }',
      'SELECT * WHERE { ?s ?p ?o FILTER(?o' + ' + 1'.repeat(5000) + ') }',
      'SELECT * WHERE { ?s ?p ?o' + Array.from({ length: 1000 }, (_, i) => ` BIND(1 AS ?b${i})`).join('') + ' }',
    ];
    const probed = await probingHealth(service.url, async () =>
      Promise.all(killers.map((query) => sparql(service.url, query))),
    );
    for (const answer of probed.result)
      assert.deepEqual([answer.status, answer.body.code], [400, 'query.too-complex'], answer.body.detail);
    assertHealthy(probed, 'queries that would crash the engine');
    const large = await sparql(service.url, `SELECT * WHERE { ?s ?p "${'x'.repeat(100_000)}" }`);
    assert.deepEqual([large.status, large.body.code], [413, 'query.too-large']);
    assert.match(large.body.detail!, /MCPLD_MAX_QUERY_BYTES/);
    assert.equal((await sparql(service.url, 'ASK { ?s ?p ?o }')).status, 200);
  });

  it('ends SELECT * { ?a ?b ?c . ?d ?e ?f } in 422 naming the row limit, without running the engine out of memory, and /health answers in time', async () => {
    service = await startService();
    await ingestCorpus(service.url);
    const probed = await probingHealth(service.url, () => sparql(service.url, 'SELECT * { ?a ?b ?c . ?d ?e ?f }'));
    assert.equal(probed.result.status, 422);
    assert.equal(probed.result.body.code, 'query.result-too-large');
    assert.match(probed.result.body.detail!, /more than the limit of 100000 rows \(MCPLD_MAX_RESULT_ROWS\)/);
    assertHealthy(probed, 'a cartesian product');
    const constructed = await sparql(
      service.url,
      'CONSTRUCT { ?a ?b ?c . ?d ?e ?f } WHERE { ?a ?b ?c . ?d ?e ?f }',
      'application/n-triples',
    );
    assert.deepEqual([constructed.status, constructed.body.code], [422, 'query.result-too-large']);
    const limited = await sparql(service.url, 'SELECT * { ?a ?b ?c . ?d ?e ?f } LIMIT 10');
    assert.equal(limited.status, 200);
  });

  it('writes a large answer off the event loop: 50,000 rows of six terms as JSON, 5,000 triples as JSON-LD', async () => {
    service = await startService();
    await ingestCorpus(service.url);
    const rows = await probingHealth(service.url, async () => {
      const response = await fetch(`${service.url}/sparql`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
        body: 'SELECT * { ?a ?b ?c . ?d ?e ?f } LIMIT 50000',
      });
      return {
        status: response.status,
        rows: ((await response.json()) as { results: { bindings: unknown[] } }).results.bindings.length,
      };
    });
    assert.deepEqual(rows.result, { status: 200, rows: 50_000 });
    assertHealthy(rows, '50,000 rows as JSON');
    const graph = await probingHealth(service.url, async () => {
      const response = await fetch(`${service.url}/sparql`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query', accept: 'application/ld+json' },
        body: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 5000',
      });
      await response.arrayBuffer();
      return response.status;
    });
    assert.equal(graph.result, 200);
    assertHealthy(graph, '5,000 triples as JSON-LD');
  });

  it('checks and answers a query at once while a long write runs (a session of 50,000 quads as JSON-LD)', async () => {
    service = await startService();
    let lines = '';
    for (let i = 0; i < 2000; i++)
      lines +=
        JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'echo', arguments: { message: `hello ${i}` } },
        }) + '\n';
    const ingested = await fetch(`${service.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'mcp-ld-session': 'long' },
      body: lines,
    });
    assert.equal(ingested.status, 200);
    const writing = fetch(`${service.url}/sessions/long`, { headers: { accept: 'application/ld+json' } }).then(
      async (response) => {
        await response.arrayBuffer();
        return { status: response.status, done: performance.now() };
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const ask = await sparql(service.url, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }');
    const askDone = performance.now();
    const written = await writing;
    assert.equal(ask.status, 200);
    assert.equal(written.status, 200);
    assert.ok(askDone < written.done, `the query waited for the session (${Math.round(askDone - started)} ms)`);
    assert.ok(askDone - started < 2000, `the query took ${Math.round(askDone - started)} ms`);
  });

  it('five runaway queries: those past the queue limit get 429 with Retry-After at once, an ingest waits for one query only, /health for none', async () => {
    const limitMs = 2000;
    service = await startService([], { MCPLD_QUERY_TIMEOUT: String(limitMs), MCPLD_MAX_QUEUED: '2' });
    await ingestCorpus(service.url);
    const probed = await probingHealth(service.url, async () => {
      const runaways = Array.from({ length: 5 }, () => sparql(service.url, runaway));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const askStarted = performance.now();
      const ask = await sparql(service.url, 'ASK { ?s ?p ?o }');
      const askMs = performance.now() - askStarted;
      const ingestStarted = performance.now();
      const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const ingest = await fetch(`${service.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-ld-session': 'late' },
        body: line,
      });
      await ingest.arrayBuffer();
      const ingestMs = performance.now() - ingestStarted;
      return { runaways: await Promise.all(runaways), ask, askMs, ingest: ingest.status, ingestMs };
    });
    const { runaways, ask, askMs, ingest, ingestMs } = probed.result;
    const statuses = runaways.map((r) => r.status).sort();
    assert.deepEqual(statuses, [429, 429, 504, 504, 504], 'one runs, two wait, two are refused');
    for (const refused of [...runaways.filter((r) => r.status === 429), ask]) {
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'store.busy');
      assert.match(refused.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
    }
    assert.ok(askMs < 1000, `the ASK was refused after ${Math.round(askMs)} ms`);
    assert.equal(ingest, 200);
    assert.ok(
      ingestMs < 2 * limitMs + 2000,
      `the ingest waited ${Math.round(ingestMs)} ms behind queries of ${limitMs} ms each (it waited for all of them before)`,
    );
    assertHealthy(probed, 'five runaway queries');
    assert.equal((await sparql(service.url, 'ASK { ?s ?p ?o }')).status, 200, 'served again once the queue drained');
  });
});
