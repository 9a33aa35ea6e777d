// Large answers streamed from the embedded store to the client (issue 20, item 5), against a real listening service:
// the streamed text equals what the buffered path writes for the same query on the same store, in every streamed
// format; the statuses, media types and result limits are those of the buffered answers; and a client that goes away
// lets the store's answer go (the store holds at most MCPLD_MAX_QUEUED + 1 answers open: one more is a 429).
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { writeResult, type ResultFormat } from '../../src/query/index.js';
import { writeNQuads } from '../../src/rdf/index.js';
import { trafficRecords } from '../helpers/corpus.js';
import { withService } from '../helpers/service.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const session = 'streamed';
const graph = `urn:mcp-ld:session/${session}`;
/** Enough rows for several chunks of the store's (about 1 MiB each). */
const messages = 1500;

/** One session of `messages` messages: the capture's records over and over, numbered 1, 2, 3… */
function sessionJsonl(): string {
  const records = trafficRecords();
  const lines: string[] = [];
  for (let i = 0; i < messages; i++)
    lines.push(JSON.stringify({ ...records[i % records.length], seq: i + 1, session }));
  return lines.join('\n') + '\n';
}

const ordered = `SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?s ?p ?o`;
const selectMedia: [ResultFormat, string][] = [
  ['json', 'application/sparql-results+json'],
  ['xml', 'application/sparql-results+xml'],
  ['csv', 'text/csv'],
  ['tsv', 'text/tab-separated-values'],
  ['jsonl', 'application/jsonl'],
];

describe('api: large answers streamed from the store', function () {
  this.timeout(300_000);
  let app: FastifyInstance;
  let store: EmbeddedStore;
  let url: string;

  before(async () => {
    store = await EmbeddedStore.open({ maxQueuedQueries: 1 });
    app = await buildServer(
      readServiceConfig({}, { MCPLD_BODY_LIMIT: String(64 * 1024 * 1024), MCPLD_MAX_RESULT_ROWS: '100000' }),
      { logger: false, store },
    );
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    const ingested = await fetch(`${url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: sessionJsonl(),
    });
    assert.equal(ingested.status, 200, await ingested.text());
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  const sparql = (query: string, accept: string, init: RequestInit = {}) =>
    fetch(`${url}/sparql?query=${encodeURIComponent(query)}`, { headers: { accept }, ...init });

  it('answers a SELECT of more than a chunk in each streamed format, equal to the whole answer written at once', async () => {
    const whole = await store.query(ordered);
    assert.ok(
      whole.form === 'SELECT' && whole.rows.length > 40_000,
      `${whole.form === 'SELECT' ? whole.rows.length : 0} rows`,
    );
    for (const [format, type] of selectMedia) {
      const response = await sparql(ordered, type);
      assert.equal(response.status, 200, format);
      assert.ok(
        response.headers.get('content-type')!.startsWith(type),
        `${format}: ${response.headers.get('content-type')}`,
      );
      assert.equal(response.headers.get('transfer-encoding'), 'chunked', format);
      assert.ok(
        (await response.text()) === (await writeResult(whole, format)),
        `${format}: the streamed text differs from the whole answer's`,
      );
    }
  });

  it('answers a SELECT with no rows, and one without ORDER BY, as the whole answer does', async () => {
    const none = 'SELECT ?s WHERE { ?s <urn:nothing> ?o }';
    assert.equal(
      await (await sparql(none, 'application/sparql-results+json')).text(),
      await writeResult(await store.query(none), 'json'),
    );
    assert.equal(await (await sparql(none, 'text/csv')).text(), await writeResult(await store.query(none), 'csv'));
    const unordered = 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }';
    const streamed = (await (await sparql(unordered, 'text/tab-separated-values')).text()).split('\n');
    const whole = (await writeResult(await store.query(unordered), 'tsv')).split('\n');
    assert.equal(streamed[0], whole[0]);
    assert.deepEqual(streamed.sort(), whole.sort());
  });

  it('sends a small answer (every row in its first chunk) at once, with its length, equal to the whole answer', async () => {
    const small = 'SELECT ?s WHERE { GRAPH ?g { ?s a ?type } } ORDER BY ?s LIMIT 3';
    for (const [format, type] of selectMedia) {
      const response = await sparql(small, type);
      assert.equal(response.status, 200, format);
      assert.equal(response.headers.get('transfer-encoding'), null, format);
      const text = await response.text();
      assert.equal(Number(response.headers.get('content-length')), Buffer.byteLength(text), format);
      assert.equal(text, await writeResult(await store.query(small), format), format);
    }
  });

  it('answers a CONSTRUCT of the whole session as N-Triples and N-Quads, equal to the whole answer', async () => {
    const construct = `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${graph}> { ?s ?p ?o } }`;
    const whole = await store.query(construct);
    assert.ok(whole.form === 'CONSTRUCT' && whole.quads.length > 40_000);
    for (const [format, type] of [
      ['ntriples', 'application/n-triples'],
      ['nquads', 'application/n-quads'],
    ] as const) {
      const response = await sparql(construct, type);
      assert.equal(response.status, 200);
      assert.ok(response.headers.get('content-type')!.startsWith(type));
      const streamed = (await response.text()).split('\n').sort();
      assert.deepEqual(streamed, (await writeResult(whole, format)).split('\n').sort(), format);
    }
  });

  it('answers GET /sessions/{id} as N-Quads streamed, equal to the session graph written whole; an unknown session is a 404', async () => {
    const response = await fetch(`${url}/sessions/${session}`, { headers: { accept: 'application/n-quads' } });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('content-type')!.startsWith('application/n-quads'));
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    const streamed = (await response.text()).split('\n').sort();
    assert.deepEqual(
      streamed,
      writeNQuads(await store.graphQuads(graph))
        .split('\n')
        .sort(),
    );
    const unknown = await fetch(`${url}/sessions/nobody`, { headers: { accept: 'application/n-quads' } });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).code, 'session.unknown');
  });

  it('streams from `mcp-ld serve --data` too (the process that owns the data directory), in the same text', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpld-stream-data-'));
    try {
      await withService(['--data', dir], { MCPLD_BODY_LIMIT: String(64 * 1024 * 1024) }, async (service) => {
        const ingested = await fetch(`${service.url}/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-ndjson' },
          body: sessionJsonl(),
        });
        assert.equal(ingested.status, 200, await ingested.text());
        const select = await fetch(`${service.url}/sparql?query=${encodeURIComponent(ordered)}`, {
          headers: { accept: 'application/sparql-results+json' },
        });
        assert.equal(select.status, 200);
        assert.equal(select.headers.get('transfer-encoding'), 'chunked');
        assert.ok((await select.text()) === (await writeResult(await store.query(ordered), 'json')));
        const quads = await fetch(`${service.url}/sessions/${session}`, {
          headers: { accept: 'application/n-quads' },
        });
        assert.equal(quads.status, 200);
        assert.equal(quads.headers.get('transfer-encoding'), 'chunked');
        assert.deepEqual(
          (await quads.text()).split('\n').sort(),
          writeNQuads(await store.graphQuads(graph))
            .split('\n')
            .sort(),
        );
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the result limits: past MCPLD_MAX_RESULT_ROWS the answer is a 422 problem, before any row is sent', async () => {
    // Each quad three times: more than the 100,000 rows allowed.
    const tooMany = 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } VALUES ?copy { 1 2 3 } }';
    for (const [, type] of selectMedia) {
      const response = await sparql(tooMany, type);
      assert.equal(response.status, 422, type);
      assert.ok(response.headers.get('content-type')!.startsWith('application/problem+json'));
      assert.equal((await response.json()).code, 'query.result-too-large');
    }
    const construct = await sparql(
      'CONSTRUCT { ?s ?p ?copy } WHERE { GRAPH ?g { ?s ?p ?o } VALUES ?copy { 1 2 3 } }',
      'application/n-triples',
    );
    assert.equal(construct.status, 422);
    assert.equal((await construct.json()).code, 'query.result-too-large');
  });

  it('lets the answer go when the client goes away: open answers are bounded (429 past them), and freed by a disconnect', async () => {
    // With MCPLD_MAX_QUEUED = 1 the store keeps at most two answers open. Each quad twice as JSON: about 25 MB, more
    // than the socket's buffers hold, so each answer stays open while its client reads nothing more.
    const large = 'SELECT * WHERE { GRAPH ?g { ?s ?p ?o } VALUES ?copy { 1 2 } }';
    const readers = [new AbortController(), new AbortController()];
    try {
      for (const reader of readers) {
        const response = await sparql(large, 'application/sparql-results+json', { signal: reader.signal });
        assert.equal(response.status, 200);
        const body = response.body!.getReader();
        assert.ok(((await body.read()).value?.length ?? 0) > 0);
      }
      // Both clients are still there, reading nothing: a third answer is refused.
      const refused = await sparql(ordered, 'text/csv');
      assert.equal(refused.status, 429);
      assert.equal((await refused.json()).code, 'store.busy');
    } finally {
      for (const reader of readers) reader.abort();
    }
    // Their answers are let go as the disconnects arrive.
    let status = 0;
    for (let tries = 0; tries < 100 && status !== 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = await sparql('SELECT ?s WHERE { ?s ?p ?o } LIMIT 3', 'text/csv');
      status = response.status;
      await response.text();
    }
    assert.equal(status, 200);
  });
});
