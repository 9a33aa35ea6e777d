import assert from 'node:assert/strict';
import type { Term } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { Lifter } from '../../src/lift/lifter.js';
import { loadSchema } from '../../src/schema/index.js';
import { quadsToNQuads } from '../../src/rdf/nquads.js';
import { xsd } from '../../src/rdf/vocabulary.js';
import {
  completeAnswer,
  NamedQueries,
  parseQuery,
  prepareQuery,
  readQuery,
  runNamedQuery,
  runQuery,
  SessionPartials,
  type NamedQuery,
  type ParameterValues,
} from '../../src/query/index.js';
import { mergeSessionRows, parsePerSession, perSessionProblem, sessionQuery } from '../../src/query/per-session.js';
import { compareTerms, compareText, rowOrder } from '../../src/query/term-order.js';
import type { QueryOptions, QueryResult, QuadStore } from '../../src/store/quad-store.js';
import { corpusStore, edgeRecords, type Corpus } from './corpus-store.js';

const named = new NamedQueries();
const kept = named.list().filter((q) => q.perSession);

/**
 * Each row as one line of its terms, in the answer's order; the items of `lists` (space-separated lists, which come in
 * any order) sorted.
 */
function lines(result: QueryResult | undefined, lists: ReadonlySet<string> = new Set()): string[] {
  assert.ok(result && result.form === 'SELECT', 'a SELECT answer');
  const term = (t: Term | undefined) =>
    t === undefined
      ? '-'
      : t.termType === 'Literal'
        ? `"${t.value}"${t.language ? `@${t.language}` : `^^${t.datatype.value}`}`
        : `${t.termType}:${t.value}`;
  const value = (v: string, t: Term | undefined) =>
    lists.has(v) && t ? DataFactory.literal(t.value.split(' ').sort().join(' ')) : t;
  return result.rows.map((row) => result.variables.map((v) => `${v}=${term(value(v, row.get(v)))}`).join(' | '));
}

/** The store, counting the queries it is asked: over one session's graph (a dataset), or over the union. */
function counted(store: QuadStore): { store: QuadStore; perSession: () => number; whole: () => number } {
  let perSession = 0;
  let whole = 0;
  const count = (options?: QueryOptions) => (options?.dataset ? perSession++ : whole++);
  const wrapper = Object.create(store) as QuadStore;
  Object.assign(wrapper, {
    query: (sparql: string, options?: QueryOptions) => (count(options), store.query(sparql, options)),
    queryText: (sparql: string, options?: QueryOptions) => (count(options), store.queryText(sparql, options)),
  });
  return { store: wrapper, perSession: () => perSession, whole: () => whole };
}

/** The kept answer of `query` (made first, then asked again), as the store would give it (no computed columns). */
async function keptAnswer(partials: SessionPartials, query: NamedQuery, values: ParameterValues = {}) {
  let answer = await partials.answer(query, values);
  for (let tries = 0; answer === undefined && tries < 3; tries++) {
    await partials.settled();
    answer = await partials.answer(query, values);
  }
  assert.ok(answer, `${query.name}: the sessions' answers are kept`);
  return answer;
}

/** A session of the edge cases under a new id (a write of one session). */
function edgeSessionNQuads(id: string): string {
  const lifter = new Lifter(loadSchema());
  return quadsToNQuads(edgeRecords().flatMap((record) => lifter.lift({ ...record, session: id }).quads));
}

describe('query: named queries answered from each session’s answer (@per-session)', function () {
  this.timeout(120_000);
  let corpus: Corpus;
  let partials: SessionPartials;

  before(async () => {
    // Every capture of every version, the OGC examples, the edge cases, and 20 copies of them (ties in every order).
    corpus = await corpusStore(20);
    partials = new SessionPartials(corpus.store);
  });
  after(async () => {
    partials.close();
    await corpus.store.close();
  });

  it('declares how for the slow and the console’s queries, and each of them fits its declaration', () => {
    assert.deepEqual(
      kept.map((q) => q.name),
      [
        'activity',
        'cancelled-requests',
        'latency-by-method',
        'messages-per-method',
        'progress-timeline',
        'protocol-versions',
        'server-requests',
        'session-facets',
        'session-list',
        'sessions',
        'task-status',
        'tool-calls',
        'tool-errors',
        'tool-latency-histogram',
        'tool-latency',
      ],
    );
  });

  it('gives, from the sessions’ answers, the rows of the whole query in its order: corpus of every version, with windows', async () => {
    for (const query of kept) {
      const names = new Set(query.parameters.map((p) => p.name));
      const cases: ParameterValues[] = [{}];
      if (names.has('since')) cases.push({ since: '2026-01-01T10:00:01Z', until: '2026-01-03' });
      if (query.name === 'activity') cases.push({ bucket: 'minute' }, { bucket: 'day' });
      if (names.has('tool')) cases.push({ tool: 'echo' });
      if (names.has('method')) cases.push({ method: 'tools/call' });
      if (query.name === 'session-list') {
        // Every sort in both directions, pages past the first, and each filter: all cut from one kept answer.
        for (const sort of ['start', 'end', 'duration', 'messages', 'errors', 'server', 'client', 'protocol', 'id'])
          cases.push({ sort }, { sort, descending: true, limit: 7, offset: 3 });
        cases.push({ limit: 0 }, { offset: 1000 }, { search: 'EDGE' }, { filterProtocol: '2025-06-18', limit: 5 });
        cases.push({ filterServer: 'everything', filterClient: 'mcpcap-driver' });
      }
      for (const values of cases) {
        const why = `${query.name} ${JSON.stringify(values)}`;
        const prepared = prepareQuery(query, values);
        const whole = await runQuery(corpus.store, prepared);
        const merged = await keptAnswer(partials, query, values);
        assert.ok(lines(whole).length > 0 || Object.keys(values).length > 0, `${query.name}: the corpus gives rows`);
        // The same rows, in the same order but where the ORDER BY holds rows equal (ties come in the store's order).
        const lists = new Set(
          [...query.perSession!.merged].filter(([, op]) => op === 'concat' || op === 'union').map(([c]) => c),
        );
        assert.deepEqual([...lines(merged, lists)].sort(), [...lines(whole, lists)].sort(), why);
        assert.ok(merged.form === 'SELECT' && whole.form === 'SELECT' && prepared.tree.queryType === 'SELECT');
        if (query.name === 'session-list') {
          // It orders by a column it does not select, and to the last key (the session id): the very order.
          assert.deepEqual(lines(merged), lines(whole), `${why}: in order`);
        } else {
          const order = rowOrder(prepared.tree.order ?? [], new Set(whole.variables), prepared.tree.variables);
          whole.rows.forEach((row, i) => assert.equal(order(merged.rows[i]!, row), 0, `${why}: row ${i} out of order`));
        }
        assert.deepEqual(
          [...lines(completeAnswer(query, merged))].sort(),
          [...lines(completeAnswer(query, whole))].sort(),
          `${why}, its computed columns`,
        );
      }
    }
  });

  it('reruns only the sessions a write touched, and follows ingests, removals and updates', async () => {
    const store = await (await import('../../src/store/embedded-store.js')).EmbeddedStore.open({});
    await store.ingest(quadsToNQuads(corpus.quads));
    const watched = counted(store);
    const own = new SessionPartials(watched.store);
    try {
      const activity = named.get('activity');
      const same = async (why: string) =>
        assert.deepEqual(
          lines(completeAnswer(activity, await keptAnswer(own, activity))),
          lines(await runNamedQuery(store, activity, {})),
          why,
        );
      await same('at first');
      const sessions = (await store.graphs()).length;
      assert.equal(watched.perSession(), sessions, 'each session was asked once');

      await store.ingest(edgeSessionNQuads('written-later'));
      let before = watched.perSession();
      await same('after a new session');
      assert.equal(watched.perSession() - before, 1, 'only the new session was asked');

      assert.equal(await store.deleteGraph(corpus.sessionIri('edge-cases-3')), true);
      before = watched.perSession();
      await same('after a session was removed');
      assert.equal(watched.perSession() - before, 1, 'only the removed session was asked');

      // An update: the store cannot tell which sessions it touched, so everything is made again.
      await store.update(
        `DELETE { GRAPH ?g { ?m <https://w3id.org/mcp-ld/ns#latencyMs> ?ms } } WHERE { GRAPH ?g { ?m <https://w3id.org/mcp-ld/ns#latencyMs> ?ms } }`,
      );
      assert.equal(await own.answer(activity, {}), undefined, 'nothing kept after an update');
      await same('after an update');
    } finally {
      own.close();
      await store.close();
    }
  });

  it('answers nothing itself for a query it does not keep, nor over a dataset or session of the caller’s', async () => {
    assert.equal(await partials.answer(named.get('overview'), {}), undefined);
    const activity = named.get('activity');
    await keptAnswer(partials, activity);
    assert.equal(await partials.answer(activity, {}, { session: corpus.sessionIri('edge-cases') }), undefined);
    assert.equal(await partials.answer(activity, {}, { dataset: { defaultGraphs: [], namedGraphs: [] } }), undefined);
    const remoteLike = { ...corpus.store, changes: undefined } as unknown as QuadStore;
    assert.throws(() => new SessionPartials(remoteLike), /tells its writes/);
  });

  it('is what GET /queries/{name} answers once the sessions’ answers are kept, byte for byte', async () => {
    const watched = counted(corpus.store);
    const app = await buildServer(readServiceConfig({}, {}), { logger: false, store: watched.store });
    try {
      const get = () => app.inject({ url: '/queries/task-status', headers: { accept: 'application/json' } });
      const first = await get();
      assert.equal(first.statusCode, 200, first.body);
      let keptBody: string | undefined;
      for (let tries = 0; tries < 100 && keptBody === undefined; tries++) {
        const whole = watched.whole();
        const again = await get();
        if (watched.whole() === whole) keptBody = again.body;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(keptBody !== undefined, 'an answer came from the kept answers, with no whole query');
      assert.equal(keptBody, first.body);
      assert.ok((JSON.parse(first.body) as unknown[]).length > 0);
    } finally {
      await app.close();
    }
  });
});

describe('query: @per-session declarations and merges', () => {
  const select = (text: string) => parseQuery(text).tree;

  it('reads the declaration, and says what is wrong with a bad one', () => {
    assert.deepEqual(parsePerSession(''), { merged: new Map() });
    const declaration = parsePerSession('by=a,b sum=c min=d max=e concat=f union=g');
    assert.ok(typeof declaration !== 'string');
    assert.deepEqual(declaration.by, ['a', 'b']);
    assert.equal(declaration.merged.get('g'), 'union');
    assert.deepEqual(parsePerSession('sum=c')!, { by: [], merged: new Map([['c', 'sum']]) });
    assert.match(parsePerSession('avg=c') as string, /"avg" is not one of them/);
    assert.match(parsePerSession('sum=c max=c') as string, /merged twice/);
    assert.match(parsePerSession('by=c sum=c') as string, /both a group column and merged/);
    assert.match(parsePerSession('sum=') as string, /names no column/);
    assert.match(parsePerSession('by=a-b') as string, /not a column name/);
  });

  it('refuses a query it does not fit: a column not merged, a sub-query’s LIMIT, an ORDER BY mcp-ld cannot apply', () => {
    const declaration = parsePerSession('by=a sum=n') as Exclude<ReturnType<typeof parsePerSession>, string>;
    const ok = 'SELECT ?a (COUNT(?s) AS ?n) WHERE { ?s ?p ?a } GROUP BY ?a ORDER BY DESC(?n / 2) ?a';
    assert.equal(perSessionProblem(declaration, select(ok)), undefined);
    const byAggregate = 'SELECT ?a (COUNT(?s) AS ?n) WHERE { ?s ?p ?a } GROUP BY ?a ORDER BY DESC(COUNT(?s))';
    assert.equal(perSessionProblem(declaration, select(byAggregate)), undefined, 'an aggregate it selects as ?n');
    assert.equal(perSessionProblem(declaration, select(`${ok} LIMIT 5 OFFSET 2`)), undefined, 'cut after the merge');
    assert.match(
      perSessionProblem(
        declaration,
        select('SELECT ?a (COUNT(?s) AS ?n) WHERE { { SELECT ?s ?a WHERE { ?s ?p ?a } LIMIT 3 } } GROUP BY ?a'),
      )!,
      /cut by the LIMIT or OFFSET of a sub-query/,
    );
    const rowsOfOne = parsePerSession('') as Exclude<ReturnType<typeof parsePerSession>, string>;
    const hidden = 'SELECT ?a WHERE { ?a ?p ?b BIND(STRLEN(?b) AS ?k) } ORDER BY DESC(?k + 1) ?a LIMIT 2';
    assert.equal(perSessionProblem(rowsOfOne, select(hidden)), undefined, 'rows of one session each');
    assert.match(
      perSessionProblem(rowsOfOne, select(hidden.replace('SELECT', 'SELECT DISTINCT')))!,
      /orders by \?k, which it does not select/,
    );
    assert.match(
      perSessionProblem(declaration, select(`${ok.replace('DESC(?n / 2)', 'DESC(?m)')}`))!,
      /orders by \?m, which it does not select/,
    );
    assert.match(
      perSessionProblem(declaration, select('SELECT ?a ?b (COUNT(?s) AS ?n) WHERE { ?s ?a ?b } GROUP BY ?a ?b'))!,
      /\?b is neither a by= column nor merged/,
    );
    assert.match(
      perSessionProblem(
        declaration,
        select('SELECT ?a (COUNT(?s) AS ?n) WHERE { ?s ?p ?a } GROUP BY ?a ORDER BY DESC(MAX(?s))'),
      )!,
      /ORDER BY cannot be applied by mcp-ld: it orders by an aggregate that the query does not select/,
    );
    assert.throws(
      () =>
        readQuery('bad.rq', '# @title t\n# @description d\n# @per-session by=a\nSELECT ?a ?b WHERE { ?a ?p ?b }', true),
      /@per-session: \?b is neither a by= column nor merged/,
    );
  });

  it('asks each session without the LIMIT, for the columns it orders by too; orders, cuts and drops them after', () => {
    const declaration = parsePerSession('') as Exclude<ReturnType<typeof parsePerSession>, string>;
    const parsed = parseQuery(
      'SELECT ?a WHERE { ?a ?p ?b BIND(STRLEN(?b) AS ?k) } ORDER BY DESC(?k) ?a LIMIT 2 OFFSET 1',
    );
    const asked = sessionQuery(parsed).tree as { variables: { value: string }[]; limit?: number; offset?: number };
    assert.deepEqual(
      asked.variables.map((v) => v.value),
      ['a', 'k'],
    );
    assert.equal(asked.limit, undefined);
    assert.equal(asked.offset, undefined);
    const n = (v: string) => DataFactory.literal(v, DataFactory.namedNode(xsd.integer));
    const row = (a: string, k: string) =>
      new Map<string, Term>([
        ['a', DataFactory.namedNode(`urn:${a}`)],
        ['k', n(k)],
      ]);
    const merged = mergeSessionRows(
      declaration,
      parsed.tree,
      ['a'],
      [
        [row('x', '1'), row('y', '3')],
        [row('z', '2'), row('w', '3')],
      ],
      {
        limit: 2,
        offset: 1,
      },
    );
    assert.deepEqual(
      merged.map((r) => [...r.keys()].join() + '=' + r.get('a')!.value),
      ['a=urn:y', 'a=urn:z'],
    );
  });

  it('sums integers and decimals exactly, joins lists, takes SPARQL’s least and greatest', () => {
    const declaration = parsePerSession('by=k sum=n,ms min=first max=last concat=list union=set') as Exclude<
      ReturnType<typeof parsePerSession>,
      string
    >;
    const lit = (value: string, type: string = xsd.string) => DataFactory.literal(value, DataFactory.namedNode(type));
    const row = (entries: Record<string, Term>) => new Map(Object.entries(entries));
    const tree = select(
      'SELECT ?k ?n ?ms ?first ?last ?list ?set WHERE { ?k ?n ?ms . ?first ?last ?list . ?x ?y ?set } ORDER BY DESC(?n) ?k',
    );
    const variables = ['k', 'n', 'ms', 'first', 'last', 'list', 'set'];
    const merged = mergeSessionRows(declaration, tree, variables, [
      [
        row({
          k: lit('a'),
          n: lit('9007199254740990', xsd.integer),
          ms: lit('0.1', xsd.decimal),
          first: lit('2026-01-01T10:00:08Z', xsd.dateTime),
          last: lit('2026-01-01T10:00:08Z', xsd.dateTime),
          list: lit('1 2'),
          set: lit('x y'),
        }),
        row({ k: lit('b'), n: lit('1', xsd.integer), ms: lit('308', xsd.decimal), list: lit('') }),
      ],
      [
        row({
          k: lit('a'),
          n: lit('10', xsd.integer),
          ms: lit('0.2', xsd.decimal),
          first: lit('2026-01-01T10:00:07.5Z', xsd.dateTime),
          last: lit('2026-01-01T10:00:08.5Z', xsd.dateTime),
          list: lit('2 3'),
          set: lit('y z'),
        }),
        row({ k: lit('b'), n: lit('2', xsd.integer), ms: lit('2', xsd.decimal), list: lit('7') }),
      ],
    ]);
    const values = merged.map((r) => Object.fromEntries([...r].map(([k, v]) => [k, v.value])));
    assert.deepEqual(values, [
      {
        k: 'a',
        n: '9007199254741000',
        ms: '0.3',
        first: '2026-01-01T10:00:07.5Z',
        last: '2026-01-01T10:00:08.5Z',
        list: '1 2 2 3',
        set: 'x y z',
      },
      { k: 'b', n: '3', ms: '310', list: '7' },
    ]);
    assert.equal((merged[1]!.get('ms') as { datatype: Term }).datatype.value, xsd.decimal);
    assert.equal((merged[1]!.get('n') as { datatype: Term }).datatype.value, xsd.integer);
  });

  it('orders terms as SPARQL does: no value, blank nodes, IRIs, literals; numbers by value; text by code point', () => {
    const n = (v: string) => DataFactory.literal(v, DataFactory.namedNode(xsd.integer));
    const d = (v: string) => DataFactory.literal(v, DataFactory.namedNode(xsd.decimal));
    assert.ok(compareTerms(undefined, DataFactory.blankNode('b')) < 0);
    assert.ok(compareTerms(DataFactory.blankNode('b'), DataFactory.namedNode('urn:a')) < 0);
    assert.ok(compareTerms(DataFactory.namedNode('urn:z'), DataFactory.literal('a')) < 0);
    assert.ok(compareTerms(n('9'), n('10')) < 0);
    assert.ok(compareTerms(d('2.5'), n('3')) < 0);
    assert.equal(compareTerms(d('3'), n('3')), 0);
    assert.ok(compareText('\uffff', '\u{1f600}') < 0, 'U+FFFF before U+1F600');
    assert.ok(compareText('a', 'ab') < 0);
  });
});
