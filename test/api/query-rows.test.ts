import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { trafficFile, trafficRecords } from '../helpers/corpus.js';
import { jsonLinesText, latencyRowsProblems, rowsText, toolCallRows } from '../helpers/rows.js';
import { appOverMemory, ingestFiles, postQuery } from '../helpers/api-app.js';

const rowsType = 'application/json; profile="https://w3id.org/mcp-ld/rows"';

describe('api: named queries and /sparql answer plain JSON rows and JSON Lines', function () {
  this.timeout(120_000);
  let app: FastifyInstance;
  let store: EmbeddedStore;
  const records = trafficRecords();

  before(async () => {
    ({ app, store } = await appOverMemory({ MCPLD_BODY_LIMIT: '10000000' }));
    await ingestFiles(app, [trafficFile]);
  });
  after(async () => {
    await app?.close();
    await store?.close();
  });

  const get = (url: string, accept?: string) =>
    app.inject({ method: 'GET', url, headers: accept === undefined ? {} : { accept } });

  it('GET /queries/tool-calls with Accept: application/json: 200, the rows media type, and exactly the rows of the JSON', async () => {
    const response = await get('/queries/tool-calls', 'application/json');
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], rowsType);
    const expected = toolCallRows(records);
    assert.ok(expected.length >= 5 && expected.some((row) => (row['calls'] as number) > 1));
    assert.equal(response.body, rowsText(expected));
    // The profile named, and a wildcard subtype with the profile, give the same.
    for (const accept of [
      rowsType,
      'application/*; profile="https://w3id.org/mcp-ld/rows"',
      'text/csv;q=0.5, application/json',
    ]) {
      const again = await get('/queries/tool-calls', accept);
      assert.equal(again.headers['content-type'], rowsType, accept);
      assert.equal(again.body, response.body, accept);
    }
  });

  it('latency-by-method as rows: p50, p95 and p99 beside the mean and the extremes, computed from the capture’s latencies', async () => {
    const response = await get('/queries/latency-by-method', 'application/json');
    assert.equal(response.statusCode, 200, response.body);
    const rows = response.json() as Record<string, unknown>[];
    assert.deepEqual(Object.keys(rows[0]!), [
      'method',
      'direction',
      'answered',
      'avgMs',
      'p50Ms',
      'p95Ms',
      'p99Ms',
      'minMs',
      'maxMs',
    ]);
    assert.deepEqual(latencyRowsProblems(rows, records), []);
    const calls = rows.find((row) => row['method'] === 'tools/call')!;
    assert.ok(
      (calls['answered'] as number) >= 30 && new Set([calls['p50Ms'], calls['p95Ms'], calls['p99Ms']]).size === 3,
      JSON.stringify(calls),
    );
    // The same columns in the SPARQL results, typed: the list they come from is not among them.
    const sparqlJson = (await get('/queries/latency-by-method', 'application/sparql-results+json')).json();
    assert.deepEqual(sparqlJson.head.vars, Object.keys(rows[0]!));
    assert.equal(sparqlJson.results.bindings[0].p95Ms.datatype, 'http://www.w3.org/2001/XMLSchema#decimal');
  });

  it('answers JSON Lines for application/jsonl and for application/x-ndjson, under the type asked for', async () => {
    const expected = jsonLinesText(toolCallRows(records));
    for (const type of ['application/jsonl', 'application/x-ndjson']) {
      const response = await get('/queries/tool-calls', type);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], type);
      assert.equal(response.body, expected, type);
    }
  });

  it('POST /queries/tool-calls binds the parameters and answers the same rows, narrowed', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/queries/tool-calls',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: { tool: 'echo' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], rowsType);
    assert.equal(response.body, rowsText(toolCallRows(records, 'echo')));
    const none = await app.inject({
      method: 'POST',
      url: '/queries/tool-calls',
      headers: { 'content-type': 'application/json', accept: 'application/jsonl' },
      payload: { tool: 'a tool nobody called' },
    });
    assert.equal(none.statusCode, 200);
    assert.equal(none.body, '');
  });

  it('takes since and until in the query string, as dates or date-times, and answers 400 for a day not in the calendar', async () => {
    const during = (from: string, to: string) => (record: { ts?: string }) =>
      Date.parse(record.ts!) >= Date.parse(from) && Date.parse(record.ts!) < Date.parse(to);
    const day = await get('/queries/tool-calls?since=2026-11-29&until=2026-11-29', 'application/json');
    assert.equal(day.statusCode, 200, day.body);
    assert.equal(day.body, rowsText(toolCallRows(records)));
    const part = await get(
      `/queries/tool-calls?since=${encodeURIComponent('2026-11-29T22:56:15.5Z')}&until=2026-11-29T22:56:25`,
      'application/json',
    );
    const expected = toolCallRows(records, undefined, during('2026-11-29T22:56:15.5Z', '2026-11-29T22:56:25Z'));
    assert.ok(expected.length > 0 && expected.length < toolCallRows(records).length);
    assert.equal(part.body, rowsText(expected));
    assert.equal((await get('/queries/tool-calls?since=2026-11-30', 'application/json')).body, '[]\n');
    assert.equal((await get('/queries/tool-calls?until=2026-11-28', 'application/json')).body, '[]\n');
    const bad = await get('/queries/tool-calls?since=2026-02-29', 'application/json');
    assert.equal(bad.statusCode, 400);
    assert.match(String(bad.headers['content-type']), /^application\/problem\+json/);
    assert.match(
      bad.json().detail,
      /^parameter since must be a date and time like .* or a date like 2026-11-29 .*not "2026-02-29" \(no such date\)$/,
    );
  });

  it('still answers SPARQL 1.1 JSON results when the client asks for them or names no type', async () => {
    for (const accept of [undefined, '*/*', 'application/sparql-results+json']) {
      const response = await get('/queries/tool-calls', accept);
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/sparql-results\+json/, String(accept));
      assert.equal(response.json().results.bindings.length, toolCallRows(records).length);
    }
  });

  it('a bad parameter is still a 400 problem, and a format no query has a 406 that names the rows types', async () => {
    const bad = await get('/queries/slowest-requests?limit=many', 'application/json');
    assert.equal(bad.statusCode, 400);
    assert.match(String(bad.headers['content-type']), /^application\/problem\+json/);
    const refused = await get('/queries/tool-calls', 'image/png');
    assert.equal(refused.statusCode, 406);
    assert.match(refused.json().detail, /application\/json, application\/jsonl, application\/x-ndjson/);
  });

  const sparql = (query: string, accept: string) => postQuery(app, query, accept);
  const versions =
    'SELECT ?session ?version ?seq WHERE { ?session mld:protocolVersion ?version . OPTIONAL { ?session mld:nothing ?seq } }';

  it('/sparql gives rows for the rows profile, JSON Lines for application/jsonl and application/x-ndjson', async () => {
    const session = 'urn:mcp-ld:session/57cd8539-bf6a-4833-ae14-361ffa3a23c9';
    const rows = await sparql(versions, rowsType);
    assert.equal(rows.statusCode, 200, rows.body);
    assert.equal(rows.headers['content-type'], rowsType);
    assert.equal(rows.body, rowsText([{ session, version: '2025-11-25' }]));
    for (const type of ['application/jsonl', 'application/x-ndjson']) {
      const lines = await sparql(versions, type);
      assert.equal(lines.headers['content-type'], type);
      assert.equal(lines.body, jsonLinesText([{ session, version: '2025-11-25' }]));
    }
  });

  it('/sparql never answers rows for a plain application/json (that is the SPARQL results’ type there)', async () => {
    for (const accept of ['application/json', 'application/*', '*/*']) {
      const response = await sparql(versions, accept);
      assert.ok(
        response.statusCode === 406 || !Array.isArray(JSON.parse(response.body)),
        `${accept}: ${response.body}`,
      );
    }
  });

  it('an ASK query has no rows: 406 on /sparql for the rows profile and for JSON Lines', async () => {
    for (const accept of [rowsType, 'application/jsonl']) {
      const response = await sparql('ASK { ?s ?p ?o }', accept);
      assert.equal(response.statusCode, 406, accept);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    }
  });
});
