import assert from 'node:assert/strict';
import { McpLdError } from '../../src/core/problem.js';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { quadsToNQuads } from '../../src/rdf/nquads.js';
import { parseQuery, runQuery, sessionGraph } from '../../src/query/index.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { edgeRecords, edgeSession } from './corpus-store.js';
import { trafficRecords } from '../helpers/corpus.js';

describe('query: running over the store', function () {
  this.timeout(120_000);
  let store: EmbeddedStore;
  const traffic = trafficRecords();
  const edge = edgeRecords();

  before(async () => {
    store = await EmbeddedStore.open({});
    const lifter = new Lifter(loadSchema());
    await store.ingest(quadsToNQuads([...traffic, ...edge].flatMap((r) => lifter.lift(r).quads)));
  });
  after(async () => store?.close());

  const count = async (sparql: string, session?: string) => {
    const answer = await runQuery(store, sparql, session ? { session } : {});
    assert.equal(answer.form, 'SELECT');
    return Number(answer.rows[0]!.get('n')!.value);
  };

  it('reads the union of all session graphs as the default graph, or one session graph', async () => {
    const messages = 'SELECT (COUNT(?m) AS ?n) WHERE { ?m mld:inSession ?s }';
    assert.equal(await count(messages), traffic.length + edge.length);
    assert.equal(await count(messages, sessionGraph(edgeSession)), edge.length);
    assert.equal(
      await count(messages, sessionGraph('urn:mcp-ld:session/57cd8539-bf6a-4833-ae14-361ffa3a23c9')),
      traffic.length,
    );
    assert.equal(sessionGraph('a b'), 'urn:mcp-ld:session/a%20b');
    assert.equal(sessionGraph('x', 'https://example.org/'), 'https://example.org/session/x');
  });

  it('runs ASK, CONSTRUCT and DESCRIBE', async () => {
    assert.deepEqual(await runQuery(store, 'ASK { ?m jrpc:hasMethod "bogus/method" }'), { form: 'ASK', boolean: true });
    const built = await runQuery(store, 'CONSTRUCT { ?m mld:order ?o } WHERE { ?m mld:inSession ?s ; mld:order ?o }', {
      session: sessionGraph(edgeSession),
    });
    assert.equal(built.form === 'CONSTRUCT' && built.quads.length, edge.length);
    const described = await runQuery(store, `DESCRIBE <${sessionGraph(edgeSession)}/message/1>`);
    assert.ok(described.form === 'DESCRIBE' && described.quads.some((q) => q.predicate.value.endsWith('#hasMethod')));
  });

  it('checks the query before the store sees it', async () => {
    await assert.rejects(
      runQuery(store, 'DROP ALL'),
      (e: unknown) => e instanceof McpLdError && e.code === 'query.update-refused',
    );
    await assert.rejects(
      runQuery(store, 'SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }'),
      (e: unknown) => e instanceof McpLdError && e.code === 'query.service-refused',
    );
    assert.equal(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s a mld:Session }'), 2, 'nothing was dropped');
  });

  it('passes the time limit to the store: a runaway query fails with query.timeout', async () => {
    const runaway = parseQuery('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }');
    const started = Date.now();
    await assert.rejects(
      runQuery(store, runaway, { timeoutMs: 200 }),
      (e: unknown) => e instanceof McpLdError && e.code === 'query.timeout' && e.status === 504,
    );
    assert.ok(Date.now() - started < 30_000);
    await assert.rejects(
      runQuery(store, runaway, { timeoutMs: 0 }),
      (e: unknown) => e instanceof McpLdError && e.code === 'query.timeout-invalid',
    );
    // The store answers again afterwards.
    assert.equal(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s a mld:Session }'), 2);
  });
});
