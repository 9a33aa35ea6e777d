import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { trafficFile, trafficRecords } from '../helpers/corpus.js';
import { appOverMemory, postQuery } from '../helpers/api-app.js';

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

  // Every test has a store and a service of its own: none depends on what another stored, or on the order they run in.
  beforeEach(async () => {
    ({ app, store } = await appOverMemory({ MCPLD_WRITE_TOKEN: token, MCPLD_BODY_LIMIT: '1000000' }));
  });
  afterEach(async () => {
    await app.close();
    await store.close();
  });

  const ingest = (payload: string | Buffer, headers: Record<string, string> = ndjson, query = '') =>
    app.inject({
      method: 'POST',
      url: `/ingest${query}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
      payload,
    });
  const sparql = (query: string | Buffer, accept?: string) => postQuery(app, query, accept);
  const authorised = { authorization: `Bearer ${token}` };
  const update = (text: string | Buffer, headers: Record<string, string> = authorised, url = '/sparql') =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/sparql-update', ...headers },
      payload: text,
    });
  const edited = 'urn:mcp-ld:session/edited';
  /** The real capture, stored through the route. */
  const ingestCapture = async () => assert.equal((await ingest(readFileSync(trafficFile, 'utf8'))).statusCode, 200);

  it('ingests NDJSON of capture records and summarises it; SPARQL counts then equal the counts in the JSON', async () => {
    const response = await ingest(readFileSync(trafficFile, 'utf8'));
    assert.equal(response.statusCode, 200, response.body);
    const summary = response.json();
    assert.equal(summary.messages, 220);
    assert.deepEqual(summary.sessions, ['57cd8539-bf6a-4833-ae14-361ffa3a23c9']);
    assert.equal(summary.stored.quads, summary.quads);
    const counted = await sparql(
      'SELECT ?name (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?m a mcp:CallToolRequest ; jrpc:hasParameters ?p . ?p mcp:hasName ?name } } GROUP BY ?name',
    );
    assert.equal(counted.statusCode, 200, counted.body);
    const rows = counted.json().results.bindings as { name: { value: string }; n: { value: string } }[];
    assert.deepEqual(new Map(rows.map((r) => [r.name.value, Number(r.n.value)])), callsPerTool());
  });

  it('re-ingesting the same capture changes nothing', async () => {
    await ingestCapture();
    const before = (await sparql('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')).json().results.bindings[0]
      .n.value;
    assert.equal((await ingest(readFileSync(trafficFile, 'utf8'))).statusCode, 200);
    const after = (await sparql('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }')).json().results.bindings[0].n
      .value;
    assert.equal(after, before);
  });

  it('puts plain messages in the session of MCP-LD-Session, or a minted one it returns', async () => {
    const named = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
      'content-type': 'application/json',
      'mcp-ld-session': 'plain-a',
    });
    assert.equal(named.json().session, 'plain-a');
    const minted = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'application/json' });
    assert.match(minted.json().session, /^[0-9a-f-]{36}$/);
    assert.equal(minted.headers['mcp-ld-session'], minted.json().session);
  });

  it('reports bad NDJSON lines with their numbers and stores the rest; a body with no message is a 400 that stores nothing', async () => {
    const size = await store.size();
    const partial = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n{"hello":1}\n', {
      ...ndjson,
      'mcp-ld-session': 'partial',
    });
    assert.equal(partial.statusCode, 200);
    assert.deepEqual(
      partial.json().errors.map((e: { line: number }) => e.line),
      [2, 3],
    );
    assert.ok((await store.size()) > size);
    const sizeAfter = await store.size();
    const none = await ingest('nope\n{"a":1}\n');
    assert.equal(none.statusCode, 400);
    assert.match(String(none.headers['content-type']), /^application\/problem\+json/);
    assert.equal(await store.size(), sizeAfter, 'a rejected request changes nothing');
  });

  it('refuses a line that is not UTF-8 (naming the byte offset in the body) or has a key twice, streamed or whole; a body of only those stores nothing', async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const first = Buffer.from(`${ping}\n{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"x":"`);
    const body = Buffer.concat([
      first,
      Buffer.of(0xf0, 0x28, 0x8c, 0x28),
      Buffer.from('"}}}\r\n{"jsonrpc":"2.0","id":3,"method":"ping","id":3}\n'),
    ]);
    for (const headers of [ndjson, { 'content-type': 'application/json' }]) {
      const response = await ingest(body, { ...headers, 'mcp-ld-session': 'exact' });
      assert.equal(response.statusCode, 200, response.body);
      const errors = response.json().errors as { line: number; title: string; detail: string }[];
      assert.deepEqual(
        errors.map((e) => [e.line, e.title]),
        [
          [2, 'Invalid UTF-8'],
          [3, 'Duplicate key'],
        ],
        headers['content-type'],
      );
      assert.match(errors[0]!.detail, new RegExp(`^invalid UTF-8 at byte ${first.length} \\(0xF0\\)`));
      assert.match(
        errors[1]!.detail,
        /^the key "id" is given twice in one object, the second time at line 3, column 41/,
      );
    }
    const size = await store.size();
    for (const headers of [ndjson, { 'content-type': 'application/json' }]) {
      const refused = await ingest(body.subarray(ping.length + 1), headers);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
      assert.deepEqual(
        refused.json().errors.map((e: { title: string }) => e.title),
        ['Invalid UTF-8', 'Duplicate key'],
      );
    }
    assert.equal(await store.size(), size, 'nothing stored, and no U+FFFD anywhere');
    const replaced = await sparql(
      'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o FILTER(CONTAINS(STR(?o), "\\uFFFD")) } }',
    );
    assert.equal(replaced.json().results.bindings[0].n.value, '0');
  });

  it('?strict=true stores nothing when a line is bad or a message is invalid', async () => {
    const size = await store.size();
    const bad = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n', ndjson, '?strict=true');
    assert.equal(bad.statusCode, 400);
    const invalid = await ingest(
      '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}\n',
      ndjson,
      '?strict=true',
    );
    assert.equal(invalid.statusCode, 422);
    assert.equal(await store.size(), size);
  });

  it('requires the write token for ingestion when one is configured (401 without, 403 wrong)', async () => {
    const missing = await app.inject({
      method: 'POST',
      url: '/ingest',
      headers: ndjson,
      payload: '{"jsonrpc":"2.0","method":"x"}',
    });
    assert.equal(missing.statusCode, 401);
    const wrong = await app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { ...ndjson, authorization: 'Bearer nope' },
      payload: '{"jsonrpc":"2.0","method":"x"}',
    });
    assert.equal(wrong.statusCode, 403);
  });

  it('skips a line longer than the body limit as a failed line, and answers 413 for an endless one', async () => {
    const long = `{"jsonrpc":"2.0","method":"x","params":{"pad":"${'x'.repeat(1_100_000)}"}}`;
    const mixed = await ingest(`${long}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n`, {
      ...ndjson,
      'mcp-ld-session': 'long',
    });
    assert.equal(mixed.statusCode, 200);
    assert.deepEqual(
      mixed.json().errors.map((e: { line: number; title: string }) => [e.line, e.title]),
      [[1, 'Line too long']],
    );
    assert.equal(mixed.json().messages, 1);
    const endless = await ingest(long);
    assert.equal(endless.statusCode, 413);
    // Streamed, batch by batch: the lines before an endless one are stored, and the 413 says so.
    const before = await store.size();
    const pings = [1, 2, 3].map((id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`).join('\n');
    const partial = await ingest(`${pings}\n${long}`, { ...ndjson, 'mcp-ld-session': 'endless' }, '?batch=1');
    assert.equal(partial.statusCode, 413);
    const stored = partial.json().stored as { messages: number; quads: number };
    assert.equal(stored.messages, 3);
    assert.equal(await store.size(), before + stored.quads, 'the answer says exactly what was stored');
  });

  it('speaks the SPARQL 1.1 protocol: GET, urlencoded POST, sparql-query POST; results by Accept', async () => {
    await ingestCapture();
    const query = 'ASK { ?m a mcp:InitializeRequest }';
    const get = await app.inject({
      method: 'GET',
      url: `/sparql?query=${encodeURIComponent(query)}`,
      headers: { accept: 'application/sparql-results+json' },
    });
    assert.deepEqual(get.json(), { head: {}, boolean: true });
    const form = await app.inject({
      method: 'POST',
      url: '/sparql',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+xml' },
      payload: `query=${encodeURIComponent(query)}`,
    });
    assert.match(form.body, /<boolean>true<\/boolean>/);
    const csv = await sparql('SELECT ?v WHERE { ?s mld:protocolVersion ?v }', 'text/csv');
    assert.equal(csv.body.replace(/\r/g, ''), 'v\n2025-11-25\n');
    const tsv = await sparql('SELECT ?v WHERE { ?s mld:protocolVersion ?v }', 'text/tab-separated-values');
    assert.equal(tsv.body.replace(/\r/g, ''), '?v\n"2025-11-25"\n');
    const graph = await sparql(
      'CONSTRUCT { ?s mld:protocolVersion ?v } WHERE { ?s mld:protocolVersion ?v }',
      'application/n-triples',
    );
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

  it('applies SPARQL Update with the write token (204): INSERT DATA into a session graph, SELECT sees it, DELETE WHERE removes it', async () => {
    const size = await store.size();
    const inserted = await update(
      `INSERT DATA { GRAPH <${edited}> { <urn:x:note> rdfs:label "checked" ; mld:reviewer "ana" } }`,
    );
    assert.equal(inserted.statusCode, 204, inserted.body);
    assert.equal(inserted.body, '');
    const seen = await sparql('SELECT ?label WHERE { <urn:x:note> rdfs:label ?label }');
    assert.deepEqual(seen.json().results.bindings, [{ label: { type: 'literal', value: 'checked' } }]);
    assert.equal(await store.size(), size + 2);
    assert.ok(
      (await app.inject({ method: 'GET', url: '/sessions' }))
        .json()
        .sessions.some((s: { id: string }) => s.id === 'edited'),
    );
    // The urlencoded form of the protocol, and a WHERE over every session.
    const removed = await app.inject({
      method: 'POST',
      url: '/sparql',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...authorised },
      payload: `update=${encodeURIComponent('DELETE WHERE { GRAPH ?g { <urn:x:note> ?p ?o } }')}`,
    });
    assert.equal(removed.statusCode, 204, removed.body);
    assert.deepEqual((await sparql('ASK { <urn:x:note> ?p ?o }')).json(), { head: {}, boolean: false });
    assert.equal(await store.size(), size);
  });

  it('refuses SPARQL bodies that are not UTF-8, raw or percent-encoded in a form (400), rather than store or match U+FFFD', async () => {
    const size = await store.size();
    const start = Buffer.from(`INSERT DATA { GRAPH <${edited}> { <urn:x:a> <urn:x:b> "`);
    const raw = await update(Buffer.concat([start, Buffer.of(0xe9), Buffer.from('" } }')]));
    assert.equal(raw.statusCode, 400, raw.body);
    assert.match(String(raw.headers['content-type']), /^application\/problem\+json/);
    assert.match(raw.json().detail, new RegExp(`^invalid UTF-8 at byte ${start.length} \\(0xE9\\)`));
    const form = (payload: string) =>
      app.inject({
        method: 'POST',
        url: '/sparql',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...authorised },
        payload,
      });
    const percent = await form(
      `update=${encodeURIComponent(`INSERT DATA { GRAPH <${edited}> { <urn:x:a> <urn:x:b> "`)}%E9${encodeURIComponent('" } }')}`,
    );
    assert.equal(percent.statusCode, 400, percent.body);
    assert.match(percent.json().detail, /^the form percent-encodes bytes that are not UTF-8/);
    assert.equal(await store.size(), size, 'nothing stored');
    assert.equal(
      (await sparql(Buffer.concat([Buffer.from('ASK { ?s ?p "'), Buffer.of(0xff), Buffer.from('" }')]))).statusCode,
      400,
    );
    // UTF-8, raw or percent-encoded, is read as it is; a parameter named __proto__ is a parameter like any other.
    const asked = await form(`__proto__=1&query=${encodeURIComponent('ASK { FILTER("é" = "\u00e9") }')}`);
    assert.equal(asked.statusCode, 200, asked.body);
    assert.deepEqual(asked.json(), { head: {}, boolean: true });
    assert.equal((await form('query=ASK { FILTER("é" = "%C3%A9") }')).json().boolean, true);
  });

  it('refuses an update without the token (401), with a wrong one (403), and when no token is configured (403); the store is unchanged', async () => {
    const size = await store.size();
    const text = `INSERT DATA { GRAPH <${edited}> { <urn:x:a> <urn:x:b> "c" } }`;
    const anonymous = await update(text, {});
    assert.equal(anonymous.statusCode, 401);
    assert.match(String(anonymous.headers['content-type']), /^application\/problem\+json/);
    assert.match(anonymous.json().detail, /Authorization: Bearer/);
    assert.equal((await update(text, { authorization: 'Bearer nope' })).statusCode, 403);
    const open = await buildServer(readServiceConfig({}, {}), { logger: false, store });
    try {
      const refused = await open.inject({
        method: 'POST',
        url: '/sparql',
        headers: { 'content-type': 'application/sparql-update', ...authorised },
        payload: text,
      });
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().detail, /updates are disabled: start the service with MCPLD_WRITE_TOKEN set/);
    } finally {
      await open.close();
    }
    assert.equal(await store.size(), size);
  });

  it('refuses malformed updates (400 with line and column), LOAD, SERVICE, the default graph, NOW(); the store is unchanged', async () => {
    const size = await store.size();
    const refusals: [string, string, RegExp][] = [
      [
        `INSERT DATA {\n  GRAPH <${edited}> { <urn:x:a> <urn:x:b> }\n}`,
        'update.malformed',
        /^line 2, column 59: unexpected '}'; expected the end of the update, /,
      ],
      [
        `LOAD <http://example.org/data.ttl> INTO GRAPH <${edited}>`,
        'update.load-refused',
        /^LOAD <http:\/\/example\.org\/data\.ttl> at line 1, column 1: mcp-ld fetches nothing/,
      ],
      [
        `INSERT { GRAPH <${edited}> { ?s ?p ?o } }\nWHERE { GRAPH ?g { ?s ?p ?o } SERVICE <http://example.org/sparql> { ?s ?p ?o } }`,
        'update.service-refused',
        /^SERVICE <http:\/\/example\.org\/sparql> at line 2, column 31/,
      ],
      [
        'INSERT DATA { <urn:x:a> <urn:x:b> "c" }',
        'update.graph-not-named',
        /triples outside GRAPH would go into the default graph/,
      ],
      ['DELETE WHERE { ?s ?p ?o }', 'update.graph-not-named', /default graph/],
      [`WITH <${edited}> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }`, 'update.graph-not-named', /WITH/],
      ['DROP ALL', 'update.graph-not-named', /^DROP ALL at line 1, column 1: name the graph/],
      [
        `INSERT { GRAPH <${edited}> { ?s <urn:x:at> ?t } } WHERE { GRAPH ?g { ?s a mcp:CallToolRequest } BIND(NOW() AS ?t) }`,
        'update.volatile-function',
        /^NOW\(\) at line 1, column \d+: its value would differ/,
      ],
      // What a LIMIT, SAMPLE or GROUP_CONCAT picks depends on the order the store replays its quads in.
      [
        `INSERT { GRAPH <${edited}> { <urn:x:a> <urn:x:v> ?o } } WHERE { { SELECT ?o WHERE { GRAPH ?g { ?s <urn:x:b> ?o } } LIMIT 1 } }`,
        'update.order-dependent',
        /^LIMIT at line 1, column \d+: what it picks depends on the order/,
      ],
      [
        `INSERT { GRAPH <${edited}> { <urn:x:a> <urn:x:v> ?o } } WHERE { { SELECT (SAMPLE(?x) AS ?o) WHERE { GRAPH ?g { ?s <urn:x:b> ?x } } } }`,
        'update.order-dependent',
        /^SAMPLE at line 1/,
      ],
      [
        `INSERT { GRAPH <${edited}> { <urn:x:a> <urn:x:v> ?o } } WHERE { { SELECT (GROUP_CONCAT(?x) AS ?o) WHERE { GRAPH ?g { ?s <urn:x:b> ?x } } } }`,
        'update.order-dependent',
        /^GROUP_CONCAT at line 1/,
      ],
      ['SELECT * WHERE { ?s ?p ?o }', 'update.not-an-update', /query is not an update/],
    ];
    for (const [text, code, detail] of refusals) {
      const response = await update(text);
      assert.equal(response.statusCode, 400, text);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      const problem = response.json();
      assert.equal(problem.code, code, problem.detail);
      assert.match(problem.detail, detail);
    }
    assert.equal((await update(refusals[0]![0])).json().line, 2);
    assert.equal(await store.size(), size);
  });

  it('takes an update by POST only, alone, and without dataset parameters (400); an update sent as a query is refused', async () => {
    const size = await store.size();
    const text = `INSERT DATA { GRAPH <${edited}> { <urn:x:a> <urn:x:b> "c" } }`;
    const get = await app.inject({
      method: 'GET',
      url: `/sparql?update=${encodeURIComponent(text)}`,
      headers: authorised,
    });
    assert.equal(get.statusCode, 400);
    assert.match(get.json().detail, /sent by POST/);
    const both = await app.inject({
      method: 'POST',
      url: '/sparql',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...authorised },
      payload: `update=${encodeURIComponent(text)}&query=${encodeURIComponent('ASK {}')}`,
    });
    assert.equal(both.statusCode, 400);
    // POST with the update (or the query) in the URL and no body: a 400 for the update, an answer for the query.
    const urlOnly = await app.inject({
      method: 'POST',
      url: `/sparql?update=${encodeURIComponent(text)}`,
      headers: authorised,
    });
    assert.equal(urlOnly.statusCode, 400, urlOnly.body);
    assert.match(urlOnly.json().detail, /never in the URL/);
    const queryInUrl = await app.inject({
      method: 'POST',
      url: `/sparql?query=${encodeURIComponent('ASK {}')}`,
      headers: { accept: 'application/sparql-results+json' },
    });
    assert.equal(queryInUrl.statusCode, 200, queryInUrl.body);
    const dataset = await update(text, authorised, `/sparql?using-named-graph-uri=${encodeURIComponent(edited)}`);
    assert.equal(dataset.statusCode, 400);
    assert.match(dataset.json().detail, /using-named-graph-uri/);
    const inQuery = await sparql(text);
    assert.equal(inQuery.statusCode, 400, 'an update in a query is refused');
    assert.equal(inQuery.json().code, 'query.update-refused');
    assert.equal(await store.size(), size);
  });

  it('lists the named queries and runs one by GET and POST, checking parameter types', async () => {
    await ingestCapture();
    const list = (await app.inject({ method: 'GET', url: '/queries' })).json().queries as {
      name: string;
      parameters: unknown[];
    }[];
    assert.ok(list.length >= 12);
    const get = await app.inject({
      method: 'GET',
      url: '/queries/tool-calls',
      headers: { accept: 'application/sparql-results+json' },
    });
    assert.equal(get.statusCode, 200, get.body);
    const total = (get.json().results.bindings as { calls: { value: string } }[]).reduce(
      (sum, row) => sum + Number(row.calls.value),
      0,
    );
    assert.equal(
      total,
      [...callsPerTool().values()].reduce((a, b) => a + b, 0),
    );
    const unknown = await app.inject({ method: 'GET', url: '/queries/no-such-query' });
    assert.equal(unknown.statusCode, 404);
    const withInteger = list.find((q) => (q.parameters as { type: string }[]).some((p) => p.type === 'xsd:integer'));
    if (withInteger) {
      const parameter = (withInteger.parameters as { name: string; type: string }[]).find(
        (p) => p.type === 'xsd:integer',
      )!;
      const bad = await app.inject({
        method: 'POST',
        url: `/queries/${withInteger.name}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ [parameter.name]: 'many' }),
      });
      assert.equal(bad.statusCode, 400, bad.body);
    }
  });

  it('stores only session ids the API can name (up to 500 characters, no lone surrogate), each then fetched and deleted by its URL', async () => {
    const longest = 'é☃'.repeat(250);
    const record = (session: string) =>
      JSON.stringify({ session, dir: 'c2s', msg: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    const stored = await ingest(`${record(longest)}\n${record(longest + 'x')}\n`);
    assert.equal(stored.statusCode, 200, stored.body);
    assert.deepEqual(
      stored.json().errors.map((e: { line: number; detail: string }) => [e.line, e.detail]),
      [[2, '"session" must be at most 500 characters (it has 501)']],
    );
    const url = `/sessions/${encodeURIComponent(longest)}`;
    assert.equal((await app.inject({ method: 'GET', url, headers: { accept: 'application/json' } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'DELETE', url, headers: authorised })).statusCode, 204);
    const header = await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
      'content-type': 'application/json',
      'mcp-ld-session': 'x'.repeat(501),
    });
    assert.equal(header.statusCode, 400);
    assert.equal(header.json().detail, 'the MCP-LD-Session header must be at most 500 characters (it has 501)');
    // A lone surrogate (valid JSON) no URL can carry: refused; one a store got before is listed, without an href.
    const lone = await ingest(`${record('a\udc00')}\n${record('ok')}\n`);
    assert.deepEqual(
      lone.json().errors.map((e: { detail: string }) => e.detail),
      ['"session" must be well-formed Unicode (it has a lone surrogate, which no URL can carry)'],
    );
    await store.ingest('<urn:x:s> <urn:x:p> "o" <urn:mcp-ld:session/a%ED%B0%80> .\n');
    const listed = await app.inject({ method: 'GET', url: '/sessions' });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      listed.json().sessions.find((s: { id: string }) => s.id === 'a\udc00'),
      { id: 'a\udc00', graph: 'urn:mcp-ld:session/a%ED%B0%80', quads: 1 },
    );
    await store.deleteGraph('urn:mcp-ld:session/a%ED%B0%80');
  });

  it('lists sessions, gives one as quads or as its messages lowered back, and deletes one with the token', async () => {
    await ingestCapture();
    assert.equal(
      (
        await ingest('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
          'content-type': 'application/json',
          'mcp-ld-session': 'plain-a',
        })
      ).statusCode,
      200,
    );
    const sessions = (await app.inject({ method: 'GET', url: '/sessions' })).json().sessions as { id: string }[];
    assert.ok(sessions.some((s) => s.id === '57cd8539-bf6a-4833-ae14-361ffa3a23c9'));
    const messages = await app.inject({
      method: 'GET',
      url: '/sessions/57cd8539-bf6a-4833-ae14-361ffa3a23c9',
      headers: { accept: 'application/json' },
    });
    assert.deepStrictEqual(messages.json(), trafficRecords());
    const quads = await app.inject({
      method: 'GET',
      url: '/sessions/plain-a',
      headers: { accept: 'application/n-quads' },
    });
    assert.match(quads.body, /<urn:mcp-ld:session\/plain-a>/);
    const anonymous = await app.inject({ method: 'DELETE', url: '/sessions/plain-a' });
    assert.equal(anonymous.statusCode, 401);
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/sessions/plain-a',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await app.inject({ method: 'GET', url: '/sessions/plain-a' })).statusCode, 404);
    assert.equal(
      (await app.inject({ method: 'DELETE', url: '/sessions/plain-a', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
      404,
    );
  });

  it('serves the ontology and the shapes by content negotiation, with ?download', async () => {
    const turtle = await app.inject({ method: 'GET', url: '/ontology' });
    assert.match(String(turtle.headers['content-type']), /^text\/turtle/);
    const xml = await app.inject({
      method: 'GET',
      url: '/shapes?download',
      headers: { accept: 'application/rdf+xml' },
    });
    assert.match(String(xml.headers['content-type']), /^application\/rdf\+xml/);
    assert.equal(xml.headers['content-disposition'], 'attachment; filename="mcp-ld-shapes.rdf"');
    assert.equal(
      (await app.inject({ method: 'GET', url: '/ontology', headers: { accept: 'image/png' } })).statusCode,
      406,
    );
  });

  it('exposes Prometheus metrics: requests, ingested messages and quads, updates, store size, query latency', async () => {
    await ingestCapture();
    assert.equal((await update(`INSERT DATA { GRAPH <${edited}> { <urn:x:a> <urn:x:b> "c" } }`)).statusCode, 204);
    assert.equal((await update(`DELETE DATA { GRAPH <${edited}> { <urn:x:a> <urn:x:b> "c" } }`)).statusCode, 204);
    assert.equal((await sparql('ASK { ?s ?p ?o }')).statusCode, 200);
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(text, /^mcpld_sparql_updates_total 2$/m);
    for (const metric of [
      'mcpld_http_requests_total',
      'mcpld_ingested_messages_total',
      'mcpld_ingested_quads_total',
      'mcpld_store_quads',
      'mcpld_query_duration_seconds_bucket',
    ]) {
      assert.match(text, new RegExp(`^${metric}`, 'm'), metric);
    }
  });
});
