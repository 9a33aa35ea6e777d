// Named queries answered from each session's answer on the remote store (the real Virtuoso): the same rows as the
// whole query there, and kept up to date by the stamps every mcp-ld process leaves with its writes, so that a
// `mcp-ld ingest --store` in another process reruns the sessions it wrote and nothing else.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quadsToNQuads } from '../../src/rdf/nquads.js';
import {
  completeAnswer,
  NamedQueries,
  prepareQuery,
  runNamedQuery,
  runQuery,
  SessionPartials,
  type ParameterValues,
} from '../../src/query/index.js';
import { RemoteStore } from '../../src/store/remote-store.js';
import { revisionsGraph } from '../../src/store/store-revisions.js';
import { virtuosoOrSkip, type Virtuoso } from '../helpers/virtuoso.js';
import { runCli } from '../helpers/run-cli.js';
import { assertKeptResponse, counted, keptAnswer, lines, listColumns } from '../helpers/kept-answers.js';
import { corpusStore, edgeRecords, edgeSession, type Corpus } from './corpus-store.js';

const named = new NamedQueries();
const kept = named.list().filter((q) => q.perSession);
const clearAll = 'DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }';

describe('query: named queries kept per session on Virtuoso, following the writes of every mcp-ld process', function () {
  this.timeout(600_000);
  let virtuoso: Virtuoso;
  let corpus: Corpus;
  let reader: RemoteStore;
  let writer: RemoteStore;

  before(async function () {
    this.timeout(300_000);
    virtuoso = await virtuosoOrSkip(this);
    const open = () =>
      RemoteStore.open({ queryUrl: virtuoso.queryUrl, user: virtuoso.user, password: virtuoso.password });
    // Two clients that share nothing but the store: the service that keeps answers, and another writer.
    [reader, writer] = [await open(), await open()];
    await writer.update(clearAll);
    corpus = await corpusStore(0);
    await writer.ingest(quadsToNQuads(corpus.quads));
  });
  after(async () => {
    await writer?.update(clearAll);
    await corpus?.store.close();
  });

  it('gives, from the sessions’ answers, the rows the whole query gives on Virtuoso, for every query it keeps', async () => {
    const partials = new SessionPartials(reader);
    try {
      for (const query of kept) {
        const values: ParameterValues = {};
        for (const p of query.parameters) if (p.required && p.default === undefined) values[p.name] = edgeSession;
        const whole = await runQuery(reader, prepareQuery(query, values), { timeoutMs: 120_000 });
        const merged = await keptAnswer(partials, query, values);
        assert.ok(lines(whole).length > 0, `${query.name}: the corpus gives rows`);
        const lists = listColumns(query);
        assert.deepEqual([...lines(merged, lists)].sort(), [...lines(whole, lists)].sort(), query.name);
      }
    } finally {
      partials.close();
    }
  });

  it('reruns only what another process wrote: `mcp-ld ingest --store`, a session removed, an update', async () => {
    const watched = counted(reader);
    const partials = new SessionPartials(watched.store);
    const work = mkdtempSync(path.join(tmpdir(), 'mcp-ld-kept-'));
    try {
      const activity = named.get('activity');
      const same = async (why: string) =>
        assert.deepEqual(
          lines(completeAnswer(activity, await keptAnswer(partials, activity))),
          lines(await runNamedQuery(reader, activity, {})),
          why,
        );
      await same('at first');
      assert.equal(watched.perSession(), (await reader.graphs()).length, 'each session was asked once');

      // A session recorded by another process: the CLI, as a user runs it.
      const capture = path.join(work, 'later.jsonl');
      const records = edgeRecords().map((record) => ({ ...record, session: 'written-by-another-process' }));
      writeFileSync(capture, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
      const ingest = await runCli(['ingest', capture, '--store', virtuoso.queryUrl], {
        env: { ...process.env, MCPLD_STORE_USER: virtuoso.user, MCPLD_STORE_PASSWORD: virtuoso.password },
      });
      assert.equal(ingest.code, 0, ingest.stderr);
      let before = watched.perSession();
      await same('after another process recorded a session');
      assert.equal(watched.perSession() - before, 1, 'only the new session was asked');

      assert.equal(await writer.deleteGraph(corpus.sessionIri(edgeSession)), true);
      before = watched.perSession();
      await same('after another client removed a session');
      assert.equal(watched.perSession() - before, 1, 'only the removed session was asked');

      // An update: no one can tell which sessions it touched, so everything is made again.
      await writer.update(
        `DELETE { GRAPH ?g { ?m <https://w3id.org/mcp-ld/ns#latencyMs> ?ms } } WHERE { GRAPH ?g { ?m <https://w3id.org/mcp-ld/ns#latencyMs> ?ms } }`,
      );
      assert.equal(await partials.answer(activity, {}), undefined, 'nothing kept after an update');
      await same('after an update');
    } finally {
      partials.close();
      rmSync(work, { recursive: true, force: true });
      // Back to the corpus for the tests after this one.
      await writer.update(clearAll);
      await writer.ingest(quadsToNQuads(corpus.quads));
    }
  });

  it('keeps the stamps out of every answer: the union, the session list, a dataset that names their graph', async () => {
    const stamp = '<https://w3id.org/mcp-ld/store#revision>';
    const union = await reader.query(`SELECT ?s WHERE { { ?s ${stamp} ?r } UNION { GRAPH ?g { ?s ${stamp} ?r } } }`);
    assert.deepEqual(lines(union), []);
    const given = await reader.query(
      `SELECT ?s FROM <${revisionsGraph}> FROM NAMED <${revisionsGraph}> WHERE { ?s ?p ?o }`,
    );
    assert.deepEqual(lines(given), []);
    assert.ok(!(await reader.graphs()).some((g) => g.graph === revisionsGraph));
    // They are there all the same: a new client learns of a write from them.
    const { queryUrl, user, password } = virtuoso;
    const fresh = await RemoteStore.open({ queryUrl, user, password });
    const told: string[][] = [];
    const stop = fresh.changes.listen((change) => told.push(change.graphs));
    try {
      await fresh.changes.current();
      await writer.deleteGraph(corpus.sessionIri('ogc-examples'));
      await fresh.changes.current();
      assert.deepEqual(told, [[corpus.sessionIri('ogc-examples')]]);
    } finally {
      stop();
      await writer.update(clearAll);
      await writer.ingest(quadsToNQuads(corpus.quads));
    }
  });

  it('is what GET /queries/{name} answers on a remote store once the sessions’ answers are kept, byte for byte', async () => {
    await assertKeptResponse(reader, '/queries/session-list');
  });
});
