import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { trafficFile, trafficRecords } from '../helpers/corpus.js';

const token = 'secret-token';
const ndjson = { 'content-type': 'application/x-ndjson' };

/** Tool calls per tool name, counted from the JSON. */
function callsPerTool(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { msg } of trafficRecords()) {
    if (msg['method'] === 'tools/call') {
      const name = (msg['params'] as { name: string }).name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return counts;
}

describe('api: ingestion, SPARQL, named queries, sessions, ontology, metrics', function () {
  this.timeout(120_000);
  let app: FastifyInstance;
  let store: EmbeddedStore;

  before(async () => {
    store = await EmbeddedStore.open({});
    app = await buildServer(readServiceConfig({}, { MCPLD_WRITE_TOKEN: token, MCPLD_BODY_LIMIT: '1000000' }), { logger: false, store });
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  const ingest = (payload: string, headers: Record<string, string> = ndjson, query = '') =>
    app.inject({ method: 'POST', url: `/ingest${query}`, headers: { authorization: `Bearer ${token}`, ...headers }, payload });
  const sparql = (query: string, accept = 'application/sparql-results+json') =>
    app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-query', accept }, payload: query });

  it('ingests NDJSON of capture records and summarises it; SPARQL counts then equal the counts in the JSON', async () => {
    const response = await ingest(readFileSync(trafficFile, 'utf8'));
    assert.equal(response.statusCode, 200, response.body);
    const summary = response.json();
    assert.equal(summary.messages, 220);
    assert.deepEqual(summary.sessions, ['57cd8539-bf6a-4833-ae14-361ffa3a23c9']);
    assert.equal(summary.stored.quads, summary.quads);
    const counted = await sparql('SELECT ?name (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?m a mcp:CallToolRequest ; jrpc:hasParameters ?p . ?p mcp:hasName ?name } } GROUP BY ?name');
    assert.equal(counted.statusCode, 200, counted.body);
    const rows = counted.json().results.bindings as { name: { value: string }; n: { value: string } }[];
    assert.deepEqual(new Map(rows.map((r) => [r.name.value, Number(r.n.value)])), callsPerTool());
  });

  it('re-ingesting the same capture changes nothing', async () => {
    const before = (await sparql('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')).json().results.bindings[0].n.value;
    assert.equal((await ingest(readFileSync(trafficFile, 'utf8'))).statusCode, 200);
    const after = (await sparql('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')).json().results.bindings[0].n.value;
    assert.equal(after, before);
  });

  it('puts plain messages in the session of MCP-LD-Session, or a minted one it returns', async () => {
    const named = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'application/json', 'mcp-ld-session': 'plain-a' });
    assert.equal(named.json().session, 'plain-a');
    const minted = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'application/json' });
    assert.match(minted.json().session, /^[0-9a-f-]{36}$/);
    assert.equal(minted.headers['mcp-ld-session'], minted.json().session);
  });

  it('reports bad NDJSON lines with their numbers and stores the rest; a body with no message is a 400 that stores nothing', async () => {
    const size = await store.size();
    const partial = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n{"hello":1}\n', { ...ndjson, 'mcp-ld-session': 'partial' });
    assert.equal(partial.statusCode, 200);
    assert.deepEqual(partial.json().errors.map((e: { line: number }) => e.line), [2, 3]);
    assert.ok((await store.size()) > size);
    const sizeAfter = await store.size();
    const none = await ingest('nope\n{"a":1}\n');
    assert.equal(none.statusCode, 400);
    assert.match(String(none.headers['content-type']), /^application\/problem\+json/);
    assert.equal(await store.size(), sizeAfter, 'a rejected request changes nothing');
  });

  it('?strict=true stores nothing when a line is bad or a message is invalid', async () => {
    const size = await store.size();
    const bad = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n', ndjson, '?strict=true');
    assert.equal(bad.statusCode, 400);
    const invalid = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}\n', ndjson, '?strict=true');
    assert.equal(invalid.statusCode, 422);
    assert.equal(await store.size(), size);
  });

  it('requires the write token for ingestion when one is configured (401 without, 403 wrong)', async () => {
    const missing = await app.inject({ method: 'POST', url: '/ingest', headers: ndjson, payload: '{"jsonrpc":"2.0","method":"x"}' });
    assert.equal(missing.statusCode, 401);
    const wrong = await app.inject({ method: 'POST', url: '/ingest', headers: { ...ndjson, authorization: 'Bearer nope' }, payload: '{"jsonrpc":"2.0","method":"x"}' });
    assert.equal(wrong.statusCode, 403);
  });

  it('skips a line longer than the body limit as a failed line, and answers 413 for an endless one', async () => {
    const long = `{"jsonrpc":"2.0","method":"x","params":{"pad":"${'x'.repeat(1_100_000)}"}}`;
    const mixed = await ingest(`${long}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n`, { ...ndjson, 'mcp-ld-session': 'long' });
    assert.equal(mixed.statusCode, 200);
    assert.deepEqual(mixed.json().errors.map((e: { line: number; title: string }) => [e.line, e.title]), [[1, 'Line too long']]);
    assert.equal(mixed.json().messages, 1);
    const endless = await ingest(long);
    assert.equal(endless.statusCode, 413);
  });

  it('speaks the SPARQL 1.1 protocol: GET, urlencoded POST, sparql-query POST; results by Accept', async () => {
    const query = 'ASK { ?m a mcp:InitializeRequest }';
    const get = await app.inject({ method: 'GET', url: `/sparql?query=${encodeURIComponent(query)}`, headers: { accept: 'application/sparql-results+json' } });
    assert.deepEqual(get.json(), { head: {}, boolean: true });
    const form = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+xml' }, payload: `query=${encodeURIComponent(query)}` });
    assert.match(form.body, /<boolean>true<\/boolean>/);
    const csv = await sparql('SELECT ?v WHERE { ?s mld:protocolVersion ?v }', 'text/csv');
    assert.equal(csv.body.replace(/\r/g, ''), 'v\n2025-11-25\n');
    const tsv = await sparql('SELECT ?v WHERE { ?s mld:protocolVersion ?v }', 'text/tab-separated-values');
    assert.equal(tsv.body.replace(/\r/g, ''), '?v\n"2025-11-25"\n');
    const graph = await sparql('CONSTRUCT { ?s mld:protocolVersion ?v } WHERE { ?s mld:protocolVersion ?v }', 'application/n-triples');
    assert.match(graph.body, /mld\/ns#protocolVersion> "2025-11-25" \.|ns#protocolVersion> "2025-11-25" \./);
  });

  it('answers 400 with the position for malformed SPARQL, 400 for SERVICE, 406 for an impossible format', async () => {
    const malformed = await sparql('SELECT * WHERE { ?s ?p }');
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.json().detail, /line 1/);
    const service = await sparql('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }');
    assert.equal(service.statusCode, 400);
    assert.match(service.json().detail, /SERVICE/);
    const format = await sparql('SELECT * WHERE { ?s ?p ?o } LIMIT 1', 'text/turtle');
    assert.equal(format.statusCode, 406);
  });

  it('guards SPARQL Update with the write token (401 without it) and says it is not applied (501)', async () => {
    const update = 'INSERT DATA { <urn:a> <urn:b> <urn:c> }';
    const anonymous = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update' }, payload: update });
    assert.equal(anonymous.statusCode, 401);
    const authorised = await app.inject({ method: 'POST', url: '/sparql', headers: { 'content-type': 'application/sparql-update', authorization: `Bearer ${token}` }, payload: update });
    assert.equal(authorised.statusCode, 501);
    const inQuery = await sparql(update);
    assert.equal(inQuery.statusCode, 400, 'an update in a query is refused');
  });

  it('lists the named queries and runs one by GET and POST, checking parameter types', async () => {
    const list = (await app.inject({ method: 'GET', url: '/queries' })).json().queries as { name: string; parameters: unknown[] }[];
    assert.ok(list.length >= 12);
    const get = await app.inject({ method: 'GET', url: '/queries/tool-calls', headers: { accept: 'application/sparql-results+json' } });
    assert.equal(get.statusCode, 200, get.body);
    const total = (get.json().results.bindings as { calls: { value: string } }[]).reduce((sum, row) => sum + Number(row.calls.value), 0);
    assert.equal(total, [...callsPerTool().values()].reduce((a, b) => a + b, 0));
    const unknown = await app.inject({ method: 'GET', url: '/queries/no-such-query' });
    assert.equal(unknown.statusCode, 404);
    const withInteger = list.find((q) => (q.parameters as { type: string }[]).some((p) => p.type === 'xsd:integer'));
    if (withInteger) {
      const parameter = (withInteger.parameters as { name: string; type: string }[]).find((p) => p.type === 'xsd:integer')!;
      const bad = await app.inject({ method: 'POST', url: `/queries/${withInteger.name}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ [parameter.name]: 'many' }) });
      assert.equal(bad.statusCode, 400, bad.body);
    }
  });

  it('lists sessions, gives one as quads or as its messages lowered back, and deletes one with the token', async () => {
    const sessions = (await app.inject({ method: 'GET', url: '/sessions' })).json().sessions as { id: string }[];
    assert.ok(sessions.some((s) => s.id === '57cd8539-bf6a-4833-ae14-361ffa3a23c9'));
    const messages = await app.inject({ method: 'GET', url: '/sessions/57cd8539-bf6a-4833-ae14-361ffa3a23c9', headers: { accept: 'application/json' } });
    assert.deepStrictEqual(messages.json(), trafficRecords());
    const quads = await app.inject({ method: 'GET', url: '/sessions/plain-a', headers: { accept: 'application/n-quads' } });
    assert.match(quads.body, /<urn:mcp-ld:session\/plain-a>/);
    const anonymous = await app.inject({ method: 'DELETE', url: '/sessions/plain-a' });
    assert.equal(anonymous.statusCode, 401);
    const deleted = await app.inject({ method: 'DELETE', url: '/sessions/plain-a', headers: { authorization: `Bearer ${token}` } });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await app.inject({ method: 'GET', url: '/sessions/plain-a' })).statusCode, 404);
    assert.equal((await app.inject({ method: 'DELETE', url: '/sessions/plain-a', headers: { authorization: `Bearer ${token}` } })).statusCode, 404);
  });

  it('serves the ontology and the shapes by content negotiation, with ?download', async () => {
    const turtle = await app.inject({ method: 'GET', url: '/ontology' });
    assert.match(String(turtle.headers['content-type']), /^text\/turtle/);
    const xml = await app.inject({ method: 'GET', url: '/shapes?download', headers: { accept: 'application/rdf+xml' } });
    assert.match(String(xml.headers['content-type']), /^application\/rdf\+xml/);
    assert.equal(xml.headers['content-disposition'], 'attachment; filename="mcp-ld-shapes.rdf"');
    assert.equal((await app.inject({ method: 'GET', url: '/ontology', headers: { accept: 'image/png' } })).statusCode, 406);
  });

  it('exposes Prometheus metrics: requests, ingested messages and quads, store size, query latency', async () => {
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    for (const metric of ['mcpld_http_requests_total', 'mcpld_ingested_messages_total', 'mcpld_ingested_quads_total', 'mcpld_store_quads', 'mcpld_query_duration_seconds_bucket']) {
      assert.match(text, new RegExp(`^${metric}`, 'm'), metric);
    }
  });
});
