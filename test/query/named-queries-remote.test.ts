// Every named query (queries/*.rq) over the corpus gives the same answer on the remote store (the real Virtuoso) as on
// the embedded store: the same rows, each value the same term. Rows are compared as a multiset (ties in ORDER BY may
// come in either order); nothing else is normalised here, so what mcp-ld prints must agree. A new query is covered
// without a line here; the queries Virtuoso still gets wrong are listed below, and checked to be still wrong.
import assert from 'node:assert/strict';
import { quadsToNQuads } from '../../src/rdf/nquads.js';
import { NamedQueries, type ParameterValues } from '../../src/query/index.js';
import type { QueryResult } from '../../src/store/quad-store.js';
import { RemoteStore } from '../../src/store/remote-store.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { mld } from '../../src/rdf/vocabulary.js';
import { virtuosoOrSkip, type Virtuoso } from '../helpers/virtuoso.js';
import { corpusStore, edgeSession, type Corpus } from './corpus-store.js';

const named = new NamedQueries();

/** Each query runs with the service's own bounds (MCPLD_MAX_RESULT_ROWS' default), as users' queries do. */
const bounds = { maxRows: 100_000 };

/**
 * Queries Virtuoso 7.2.5 answers differently today, each with why (issue 20, item 3). The test checks that they still
 * differ, so the one that is fixed fails until it is taken off this list.
 */
const knownDifferent: Record<string, string> = {};

/** Each row as one line of its terms (kind, value, datatype or language), the lines sorted unless `ordered`. */
function rowLines(result: QueryResult, ordered = false): string[] {
  assert.equal(result.form, 'SELECT');
  if (result.form !== 'SELECT') return [];
  const term = (t: import('@rdfjs/types').Term | undefined) =>
    t === undefined
      ? '-'
      : t.termType === 'Literal'
        ? `"${t.value}"${t.language ? `@${t.language}` : `^^${t.datatype.value}`}`
        : `${t.termType}:${t.value}`;
  const lines = result.rows.map((row) => result.variables.map((v) => `${v}=${term(row.get(v))}`).join(' | '));
  return ordered ? lines : lines.sort();
}

/**
 * Queries that answer differently (or not in time) once the corpus has a few hundred more sessions, with why; not run
 * there (another helper owns them).
 */
const differAtScale: Record<string, string> = {
  'tool-schema-changes':
    "with every copy's times the same, each listing's next listings are all 200 copies': ~80,000 rows, minutes on each store",
};

/**
 * Every named query on the corpus in both stores, `edgeCopies` more sessions with it (the edge cases again under other
 * ids, and the same times: ties in every order); the queries known to differ are checked to differ on the corpus
 * alone.
 */
function sameOnBothStores(edgeCopies: number): void {
  let corpus: Corpus;
  let remote: RemoteStore;

  before(async function () {
    this.timeout(300_000);
    const virtuoso = await virtuosoOrSkip(this);
    remote = await RemoteStore.open({ queryUrl: virtuoso.queryUrl, user: virtuoso.user, password: virtuoso.password });
    await remote.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    corpus = await corpusStore(edgeCopies);
    await remote.ingest(quadsToNQuads(corpus.quads));
  });
  after(async () => {
    await remote?.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    await corpus?.store.close();
  });

  for (const query of named.list()) {
    const known = knownDifferent[query.name];
    const atScale = edgeCopies > 0 ? (known ?? differAtScale[query.name]) : undefined;
    if (atScale) {
      it(`${query.name}: not compared at ${edgeCopies} more sessions (${atScale})`);
      continue;
    }
    it(
      known ? `${query.name}: still differs on Virtuoso (${known})` : `${query.name}: the same rows on both stores`,
      async () => {
        // A required parameter is a session: the edge-case session, which has a bit of everything.
        const values: ParameterValues = {};
        for (const p of query.parameters) if (p.required && p.default === undefined) values[p.name] = edgeSession;
        const embedded = rowLines(await named.run(corpus.store, query.name, values, bounds));
        const onVirtuoso = rowLines(await named.run(remote, query.name, values, { ...bounds, timeoutMs: 120_000 }));
        assert.ok(embedded.length > 0, `${query.name} gives no row on the corpus`);
        if (known)
          assert.notDeepEqual(
            onVirtuoso,
            embedded,
            `${query.name} now answers the same on Virtuoso: take it off knownDifferent`,
          );
        else assert.deepEqual(onVirtuoso, embedded);
      },
    );
  }

  // unknown-keys with each of its parameters too: one key (a request's, a result's), a window by date and by date-time
  // (the captures' times), and both.
  it('unknown-keys with a key, a window, or both: the same rows on both stores', async () => {
    const cases: ParameterValues[] = [
      { key: 'task' },
      { key: 'text' },
      { since: '2026-01-01', until: '2026-11-29' },
      { since: '2026-11-29T22:56:10Z', until: '2026-12-01T17:40:40' },
      { key: 'task', since: '2026-01-01' },
    ];
    for (const values of cases) {
      const embedded = rowLines(await named.run(corpus.store, 'unknown-keys', values, bounds));
      const onVirtuoso = rowLines(await named.run(remote, 'unknown-keys', values, { ...bounds, timeoutMs: 120_000 }));
      assert.ok(embedded.length > 0, `unknown-keys gives no row with ${JSON.stringify(values)}`);
      assert.deepEqual(onVirtuoso, embedded, JSON.stringify(values));
    }
  });

  // The console's session table sorts by every column, both ways: the same page in the same order on both stores
  // (Virtuoso 7.2.5 folds the parameters into its SQL ORDER BY, where a number names a column and a repeated key
  // mixes up the columns of the rows).
  for (const sort of ['start', 'end', 'duration', 'messages', 'errors', 'server', 'client', 'protocol', 'id'])
    it(`session-list sorted by ${sort}, up and down: the same rows in the same order on both stores`, () =>
      sameSessionListOrder(corpus, remote, sort, 120_000));
}

/** session-list sorted by `sort`, up and down: every session, in the same order on Virtuoso as embedded. */
async function sameSessionListOrder(corpus: Corpus, remote: RemoteStore, sort: string, timeoutMs: number) {
  for (const descending of [false, true]) {
    const values: ParameterValues = { sort, descending, limit: 1000 };
    const embedded = rowLines(await named.run(corpus.store, 'session-list', values, bounds), true);
    const onVirtuoso = rowLines(await named.run(remote, 'session-list', values, { ...bounds, timeoutMs }), true);
    assert.equal(embedded.length, new Set(corpus.messages.map((m) => m.session)).size, 'every session');
    assert.deepEqual(onVirtuoso, embedded, `sorted by ${sort}, descending: ${descending}`);
  }
}

// A group's list of latencies longer than Virtuoso 7.2.5 sorts (SR478 past a few KB): the runner orders the answer of
// a query with @percentiles itself (planAnswer).
describe('query: latency-by-method over 3,000 answers of one method, on Virtuoso as on the embedded store', function () {
  this.timeout(300_000);
  let remote: RemoteStore;
  let embedded: EmbeddedStore;
  before(async function () {
    const virtuoso = await virtuosoOrSkip(this);
    remote = await RemoteStore.open({ queryUrl: virtuoso.queryUrl, user: virtuoso.user, password: virtuoso.password });
    await remote.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    embedded = await EmbeddedStore.open({});
    let nquads = '';
    for (let i = 0; i < 3000; i++) {
      const response = `<urn:mcp-ld:session/long/message/${i}>`;
      nquads += `${response} <${mld.latencyMs}> "${1000 + (i % 997)}"^^<http://www.w3.org/2001/XMLSchema#integer> <urn:mcp-ld:session/long> .\n`;
      nquads += `${response} <${mld.answersMethod}> "tools/call" <urn:mcp-ld:session/long> .\n`;
      nquads += `${response} <${mld.direction}> <${mld.serverToClient}> <urn:mcp-ld:session/long> .\n`;
    }
    await remote.ingest(nquads);
    await embedded.ingest(nquads);
  });
  after(async () => {
    await remote?.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    await embedded?.close();
  });

  it('gives the same row on both stores, its percentiles from the whole list', async () => {
    const onVirtuoso = rowLines(await named.run(remote, 'latency-by-method', {}, { ...bounds, timeoutMs: 120_000 }));
    assert.deepEqual(onVirtuoso, rowLines(await named.run(embedded, 'latency-by-method', {}, bounds)));
    assert.equal(onVirtuoso.length, 1);
    assert.match(onVirtuoso[0]!, /answered="3000"/);
  });
});

describe('query: every named query answers the same on Virtuoso as on the embedded store', function () {
  this.timeout(300_000);
  sameOnBothStores(0);
});

describe('query: every named query answers the same on Virtuoso as on the embedded store, at 200 more sessions', function () {
  this.timeout(600_000);
  sameOnBothStores(200);
});

// A Virtuoso with one more graph of its own than Debian's fresh one leaves one more graph out of its union (a fourth
// `define input:default-graph-exclude`). Virtuoso 7.2.5 then hung, or dropped 5 of 7 rows, on the session list sorted
// by duration when the duration was computed from the first and last times (queries/session-list.rq).
describe('query: session-list on a Virtuoso that keeps one more graph of its own', function () {
  this.timeout(300_000);
  const ownGraph = 'urn:virtuoso:mcp-ld-test/one-more';
  let corpus: Corpus;
  let remote: RemoteStore;
  let virtuoso: Virtuoso;

  before(async function () {
    virtuoso = await virtuosoOrSkip(this);
    virtuoso.sql(`SPARQL INSERT DATA { GRAPH <${ownGraph}> { <${ownGraph}> <${ownGraph}#p> "one more" } };`);
    remote = await RemoteStore.open({ queryUrl: virtuoso.queryUrl, user: virtuoso.user, password: virtuoso.password });
    await remote.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    corpus = await corpusStore(0);
    await remote.ingest(quadsToNQuads(corpus.quads));
  });
  after(async () => {
    await remote?.update('DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } }');
    virtuoso?.sql(`SPARQL CLEAR GRAPH <${ownGraph}>;`);
    await corpus?.store.close();
  });

  it('is left out as Virtuoso’s own, and every sort gives the same rows in the same order as the embedded store', async () => {
    const seen = await remote.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p "one more" }');
    assert.equal(seen.form === 'SELECT' && seen.rows[0]?.get('n')?.value, '0', 'its triple is in no union query');
    for (const sort of ['duration', 'messages', 'start']) await sameSessionListOrder(corpus, remote, sort, 60_000);
  });
});
