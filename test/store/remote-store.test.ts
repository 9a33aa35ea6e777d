import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { RemoteStore } from '../../src/store/remote-store.js';
import { runQuery } from '../../src/query/run-query.js';
import { isSystemGraph } from '../../src/store/system-graphs.js';
import { openStore } from '../../src/store/open-store.js';
import { readStoreConfig } from '../../src/core/config.js';
import { parseChallenge } from '../../src/store/http-auth.js';
import { virtuosoOrSkip, type Virtuoso } from '../helpers/virtuoso.js';
import { g1, quadStoreSuite, rejects, rowsOf, sample } from './quad-store-suite.js';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { server, url: `http://127.0.0.1:${address.port}/sparql` };
}

describe('store: remote (SPARQL 1.1 protocols)', function () {
  this.timeout(60_000);

  it('a store that is down makes ingest, queries and updates reject with store.unavailable (503)', async () => {
    const { server, url } = await listen(() => undefined);
    await new Promise((resolve) => server.close(resolve)); // nothing listens on that port any more
    const store = await RemoteStore.open({ queryUrl: url });
    const error = await rejects(store.ingest(sample), 'store.unavailable', 503);
    assert.match(error.message, /nothing of this batch is acknowledged/);
    await rejects(store.query('ASK {}'), 'store.unavailable', 503);
    const update = await rejects(
      store.update(`INSERT DATA { GRAPH <${g1}> { <urn:x:a> <urn:x:b> "c" } }`),
      'store.unavailable',
      503,
    );
    assert.match(update.message, /cannot reach the remote store at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('a store that answers an error makes ingest reject with store.unavailable (503)', async () => {
    const { server, url } = await listen((request, response) => {
      request.resume();
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Virtuoso 42000 Error: out of disk');
    });
    try {
      const store = await RemoteStore.open({ queryUrl: url });
      const error = await rejects(store.ingest(sample), 'store.unavailable', 503);
      assert.match(error.message, /500.*out of disk/);
    } finally {
      server.close();
    }
  });

  it('refuses a statement over the literal limit (413) before sending anything', async () => {
    let requests = 0;
    const { server, url } = await listen((request, response) => {
      requests++;
      request.resume();
      response.writeHead(201).end();
    });
    try {
      const store = await RemoteStore.open({ queryUrl: url, maxLiteralBytes: 1000 });
      await rejects(
        store.ingest(`<urn:x:a> <urn:x:b> "${'y'.repeat(2000)}" <${g1}> .\n`),
        'store.literal-too-large',
        413,
      );
      assert.equal(requests, 0);
    } finally {
      server.close();
    }
  });

  it('answers HTTP Digest (qop=auth) and Basic challenges', async () => {
    const digest = parseChallenge(
      'Digest realm="SPARQL", domain="/sparql-graph-crud-auth", nonce="abc", opaque="xyz", stale="false", qop="auth", algorithm="MD5"',
    );
    assert.deepEqual(digest, {
      scheme: 'digest',
      params: {
        realm: 'SPARQL',
        domain: '/sparql-graph-crud-auth',
        nonce: 'abc',
        opaque: 'xyz',
        stale: 'false',
        qop: 'auth',
        algorithm: 'MD5',
      },
    });
    assert.deepEqual(parseChallenge('Basic realm="fuseki"'), { scheme: 'basic', params: {} });
    const seen: string[] = [];
    const { server, url } = await listen((request, response) => {
      request.resume();
      const auth = request.headers.authorization;
      seen.push(auth ?? '');
      if (auth !== `Basic ${Buffer.from('u:p').toString('base64')}`)
        response.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end();
      else response.writeHead(204).end();
    });
    try {
      const store = await RemoteStore.open({ queryUrl: url, user: 'u', password: 'p' });
      await store.ingest(sample);
      assert.equal(seen[0], '');
      assert.ok(seen.some((a) => a.startsWith('Basic ')));
      seen.length = 0;
      await store.ingest(sample); // now authenticated up front
      assert.equal(seen.length, 2);
      assert.ok(seen.every((a) => a.startsWith('Basic ')));
    } finally {
      server.close();
    }
  });

  it('tells system graphs from session graphs', () => {
    assert.ok(isSystemGraph('http://www.openlinksw.com/schemas/virtrdf#'));
    assert.ok(isSystemGraph('http://www.w3.org/ns/ldp#'));
    assert.ok(isSystemGraph('http://localhost:8890/sparql'));
    assert.ok(!isSystemGraph('urn:mcp-ld:session/1'));
    assert.ok(!isSystemGraph('https://example.org/mcp/session/1'));
  });

  describe('against Virtuoso', function () {
    let virtuoso: Virtuoso;
    let store: RemoteStore;

    before(async function () {
      this.timeout(180_000);
      virtuoso = await virtuosoOrSkip(this);
      store = await RemoteStore.open({ queryUrl: virtuoso.queryUrl, user: virtuoso.user, password: virtuoso.password });
    });

    beforeEach(async () => {
      for (const { graph } of await store.graphs()) await store.deleteGraph(graph);
    });

    quadStoreSuite(() => store);

    it('openStore opens it from --store and the credentials in the environment', async () => {
      const config = readStoreConfig(
        { store: virtuoso.queryUrl },
        { MCPLD_STORE_USER: virtuoso.user, MCPLD_STORE_PASSWORD: virtuoso.password },
      );
      const opened = await openStore(config);
      assert.equal(opened.kind, 'remote');
      await opened.ingest(sample);
      assert.equal(await opened.size(), 6);
    });

    it('wrong credentials make ingest reject with store.unavailable (503) naming the credentials', async () => {
      const wrong = await RemoteStore.open({ queryUrl: virtuoso.queryUrl, user: virtuoso.user, password: 'wrong' });
      const error = await rejects(wrong.ingest(sample), 'store.unavailable', 503);
      assert.match(error.message, /MCPLD_STORE_USER/);
      assert.equal(await store.size(), 0);
    });

    it('uploads large batches in several Graph Store requests', async () => {
      const small = await RemoteStore.open({
        queryUrl: virtuoso.queryUrl,
        user: virtuoso.user,
        password: virtuoso.password,
        uploadTriples: 1000,
      });
      let text = '';
      for (let i = 0; i < 4500; i++) text += `<urn:x:s${i}> <urn:x:p> "${i}" <${g1}> .\n`;
      assert.equal((await small.ingest(text)).quads, 4500);
      assert.deepEqual(await store.graphs(), [{ graph: g1, quads: 4500 }]);
    });

    it("an ordered query under the service's row bound answers (Virtuoso sorts at most 10,000 rows for a LIMIT); an ordered LIMIT of one's own past that is a 400 naming MaxSortedTopRows", async () => {
      await store.ingest(sample);
      const ordered = await runQuery(store, 'SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s', { maxRows: 100_000 });
      assert.deepEqual(
        rowsOf(ordered).map((row) => row['s']),
        ['urn:x:alice', 'urn:x:alice', 'urn:x:alice', 'urn:x:bob', 'urn:x:bob', 'urn:x:bob'],
      );
      const error = await rejects(
        runQuery(store, 'SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 20000', { maxRows: 100_000 }),
        'query.invalid',
        400,
      );
      assert.match(error.message, /MaxSortedTopRows/);
    });

    it('says when Virtuoso cuts results at its ResultSetMaxRows (502) instead of answering short; reads whole graphs', async () => {
      let text = '';
      for (let i = 0; i < 12_000; i++) text += `<urn:x:s${i}> <urn:x:p> "${i}" <${g1}> .\n`;
      await store.ingest(text);
      await rejects(store.query('SELECT ?s WHERE { ?s ?p ?o }'), 'query.truncated', 502);
      assert.equal((await store.graphQuads(g1)).length, 12_000);
    });

    it("an update's GRAPH ?g reaches the session graphs only, never Virtuoso's own graphs", async () => {
      const systemQuads = async () => {
        const query =
          'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://www.openlinksw.com/schemas/virtrdf#> { ?s ?p ?o } }';
        const response = await fetch(`${virtuoso.origin}/sparql?query=${encodeURIComponent(query)}`, {
          headers: { accept: 'application/sparql-results+json' },
        });
        return Number(
          ((await response.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n
            .value,
        );
      };
      const before = await systemQuads();
      assert.ok(before > 0);
      await store.ingest(sample);
      await store.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
      assert.equal(await store.size(), 0);
      assert.equal(await systemQuads(), before);
    });

    it("a query's FROM or an explicit dataset that names Virtuoso's own graph gets an empty graph, as for any graph no session has", async () => {
      const system = 'http://www.openlinksw.com/schemas/virtrdf#';
      await store.ingest(sample);
      const count = async (query: string, options = {}) => Number(rowsOf(await store.query(query, options))[0]!['n']);
      assert.equal(await count(`SELECT (COUNT(*) AS ?n) FROM <${system}> WHERE { ?s ?p ?o }`), 0);
      assert.equal(await count(`SELECT (COUNT(*) AS ?n) FROM <${system}> FROM <${g1}> WHERE { ?s ?p ?o }`), 3);
      assert.equal(await count(`SELECT (COUNT(*) AS ?n) FROM NAMED <${system}> WHERE { GRAPH ?g { ?s ?p ?o } }`), 0);
      assert.equal(
        await count('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }', {
          dataset: { defaultGraphs: [system], namedGraphs: [system] },
        }),
        0,
      );
      assert.equal(
        await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', {
          dataset: { defaultGraphs: [system], namedGraphs: [] },
        }),
        0,
      );
    });

    it('an update Virtuoso refuses (a DROP of a graph it never created) is update.failed (400), not a store outage', async () => {
      const error = await rejects(store.update('DROP GRAPH <urn:mcp-ld:session/never-created>'), 'update.failed', 400);
      assert.match(error.message, /never-created|not been explicitly created/);
    });

    it('a runaway query fails with query.timeout (504)', async () => {
      let text = '';
      for (let i = 0; i < 3000; i++) text += `<urn:x:s${i}> <urn:x:p${i % 7}> "${i}" <${g1}> .\n`;
      await store.ingest(text);
      await rejects(
        store.query('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }', { timeoutMs: 1000 }),
        'query.timeout',
        504,
      );
      assert.equal(await store.size(), 3000);
    });

    it('when Virtuoso stops, ingest rejects with store.unavailable (503); when it is back, ingest works', async function () {
      this.timeout(180_000);
      await virtuoso.stop();
      try {
        await rejects(store.ingest(sample), 'store.unavailable', 503);
      } finally {
        await virtuoso.restart();
      }
      await store.ingest(sample);
      assert.equal(await store.size(), 6);
    });
  });
});
