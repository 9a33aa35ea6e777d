// The behaviour every QuadStore shares, as one suite run against each implementation (embedded in memory, embedded
// with a data directory, remote Virtuoso): real engines, no mocks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { QuadStore, QueryResult } from '../../src/store/quad-store.js';
import { Lifter } from '../../src/lift/lifter.js';
import { loadSchema } from '../../src/schema/index.js';
import { parseInput } from '../../src/lift/input.js';
import { trafficFile } from '../helpers/corpus.js';
import { runQuery } from '../../src/query/index.js';
import { rejectedError } from '../helpers/mcp-ld-error.js';

const xsd = 'http://www.w3.org/2001/XMLSchema#';
export const g1 = 'urn:mcp-ld:session/test-1';
export const g2 = 'urn:mcp-ld:session/test-2';

export const sample = [
  `<urn:x:alice> <urn:x:name> "Alice" <${g1}> .`,
  `<urn:x:alice> <urn:x:knows> <urn:x:bob> <${g1}> .`,
  `<urn:x:alice> <urn:x:active> "true"^^<${xsd}boolean> <${g1}> .`,
  `<urn:x:bob> <urn:x:name> "Bob" <${g2}> .`,
  `<urn:x:bob> <urn:x:age> "42"^^<${xsd}integer> <${g2}> .`,
  `<urn:x:bob> <urn:x:data> "{\\"a\\":[1,2]}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> <${g2}> .`,
  '',
].join('\n');

export function rowsOf(result: QueryResult): Record<string, string>[] {
  assert.equal(result.form, 'SELECT');
  if (result.form !== 'SELECT') return [];
  return result.rows.map((row) => Object.fromEntries([...row].map(([name, term]) => [name, term.value])));
}

export async function rejects(promise: Promise<unknown>, code: string, status: number): Promise<Error> {
  return rejectedError(promise, { code, status });
}

/** The real capture, lifted to N-Quads. */
function corpusNQuads(): string {
  const lifter = new Lifter(loadSchema());
  let out = '';
  for (const item of parseInput(readFileSync(trafficFile, 'utf8')))
    if (item.record) out += lifter.liftToNQuads(item.record).nquads;
  return out;
}

/** Registers the shared tests; `store()` gives the store under test, emptied before each test. */
export function quadStoreSuite(store: () => QuadStore): void {
  it('ingest acknowledges the quads and the session graphs of a batch', async () => {
    const receipt = await store().ingest(sample);
    assert.equal(receipt.quads, 6);
    assert.deepEqual([...receipt.graphs].sort(), [g1, g2]);
    assert.equal(await store().size(), 6);
  });

  it('SELECT runs over the union of the session graphs, or over one session', async () => {
    await store().ingest(sample);
    const all = rowsOf(await store().query('SELECT ?name WHERE { ?who <urn:x:name> ?name } ORDER BY ?name'));
    assert.deepEqual(all, [{ name: 'Alice' }, { name: 'Bob' }]);
    const one = await store().query('SELECT ?who ?name WHERE { ?who <urn:x:name> ?name }', { graph: g2 });
    assert.equal(one.form, 'SELECT');
    if (one.form === 'SELECT') assert.deepEqual([...one.variables].sort(), ['name', 'who']);
    assert.deepEqual(rowsOf(one), [{ who: 'urn:x:bob', name: 'Bob' }]);
    const joined = rowsOf(
      await store().query('SELECT ?age WHERE { <urn:x:alice> <urn:x:knows> ?b . ?b <urn:x:age> ?age }'),
    );
    assert.deepEqual(joined, [{ age: '42' }]);
  });

  it('SELECT gives typed literals back with their datatype and canonical form (booleans as true/false)', async () => {
    await store().ingest(sample);
    const result = await store().query(
      'SELECT ?active ?age ?data WHERE { <urn:x:alice> <urn:x:active> ?active . <urn:x:bob> <urn:x:age> ?age ; <urn:x:data> ?data }',
    );
    assert.equal(result.form, 'SELECT');
    if (result.form !== 'SELECT') return;
    const row = result.rows[0]!;
    const active = row.get('active')!;
    assert.equal(active.termType, 'Literal');
    assert.equal(active.value, 'true');
    assert.equal((active as { datatype: { value: string } }).datatype.value, `${xsd}boolean`);
    assert.equal((row.get('age') as { datatype: { value: string } }).datatype.value, `${xsd}integer`);
    assert.equal(row.get('data')!.value, '{"a":[1,2]}');
  });

  it('SELECT gives doubles back in one form: a whole double without ".0" (Virtuoso writes 4.0)', async () => {
    await store().ingest(sample);
    const rows = rowsOf(
      await store().query(
        `SELECT ?d WHERE { VALUES ?d { "4"^^<${xsd}double> "2.5"^^<${xsd}double> "-3"^^<${xsd}double> } } ORDER BY ?d`,
      ),
    );
    assert.deepEqual(
      rows.map((row) => row['d']),
      ['-3', '2.5', '4'],
    );
  });

  it('GRAPH ?g names the session graphs only', async () => {
    await store().ingest(sample);
    const graphs = rowsOf(await store().query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g'));
    assert.deepEqual(graphs, [{ g: g1 }, { g: g2 }]);
  });

  it("a query's FROM / FROM NAMED is its dataset: a graph no session has is empty, FROM NAMED alone leaves the default graph empty", async () => {
    await store().ingest(sample);
    const count = async (query: string, options = {}) => Number(rowsOf(await store().query(query, options))[0]!['n']);
    const names = async (query: string, options = {}) =>
      rowsOf(await store().query(query, options)).map((row) => row['name']);
    assert.equal(await count('SELECT (COUNT(*) AS ?n) FROM <urn:nope> WHERE { ?s ?p ?o }'), 0);
    assert.deepEqual(await store().query('ASK FROM <urn:nope> { ?s ?p ?o }'), { form: 'ASK', boolean: false });
    assert.deepEqual(await names(`SELECT ?name FROM <${g1}> WHERE { ?who <urn:x:name> ?name }`), ['Alice']);
    assert.deepEqual(
      await names(`SELECT ?name FROM <${g1}> FROM <${g2}> WHERE { ?who <urn:x:name> ?name } ORDER BY ?name`),
      ['Alice', 'Bob'],
    );
    // Prefixed names and relative IRIs (against BASE) name graphs as IRIs do.
    assert.deepEqual(
      await names('PREFIX s: <urn:mcp-ld:session/> SELECT ?name FROM s:test-2 WHERE { ?who <urn:x:name> ?name }'),
      ['Bob'],
    );
    assert.deepEqual(
      await names('BASE <urn:mcp-ld:session/> SELECT ?name FROM <test-1> WHERE { ?who <urn:x:name> ?name }'),
      ['Alice'],
    );
    // FROM alone: no named graphs. FROM NAMED alone: an empty default graph.
    assert.deepEqual(rowsOf(await store().query(`SELECT ?g FROM <${g1}> WHERE { GRAPH ?g { ?s ?p ?o } }`)), []);
    assert.deepEqual(
      rowsOf(await store().query(`SELECT DISTINCT ?g FROM NAMED <${g2}> WHERE { GRAPH ?g { ?s ?p ?o } }`)),
      [{ g: g2 }],
    );
    assert.equal(await count(`SELECT (COUNT(*) AS ?n) FROM NAMED <${g2}> WHERE { ?s ?p ?o }`), 0);
    // Every form; and the query's dataset wins over the one-session default of `graph`.
    const graph = await store().query(`CONSTRUCT { ?s ?p ?o } FROM <${g2}> WHERE { ?s ?p ?o }`);
    assert.equal(graph.form === 'CONSTRUCT' && graph.quads.length, 3);
    const described = await store().query(`DESCRIBE <urn:x:alice> FROM <${g2}>`);
    assert.equal(
      described.form === 'DESCRIBE' && described.quads.filter((q) => q.subject.value === 'urn:x:alice').length,
      0,
    );
    assert.deepEqual(await names(`SELECT ?name FROM <${g1}> WHERE { ?who <urn:x:name> ?name }`, { graph: g2 }), [
      'Alice',
    ]);
  });

  it("an explicit dataset replaces the query's: its default graphs merge, its named graphs are exactly those given, unknown ones are empty", async () => {
    await store().ingest(sample);
    const count = async (query: string, options = {}) => Number(rowsOf(await store().query(query, options))[0]!['n']);
    const both = { defaultGraphs: [g1, g2], namedGraphs: [] };
    assert.deepEqual(
      rowsOf(await store().query('SELECT ?name WHERE { ?who <urn:x:name> ?name } ORDER BY ?name', { dataset: both })),
      [{ name: 'Alice' }, { name: 'Bob' }],
    );
    assert.deepEqual(rowsOf(await store().query('SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', { dataset: both })), []);
    const named = { defaultGraphs: [], namedGraphs: [g2] };
    assert.equal(await count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { dataset: named }), 0);
    assert.deepEqual(
      rowsOf(await store().query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', { dataset: named })),
      [{ g: g2 }],
    );
    assert.deepEqual(
      rowsOf(
        await store().query(`SELECT ?name FROM <${g2}> WHERE { ?who <urn:x:name> ?name }`, {
          dataset: { defaultGraphs: [g1], namedGraphs: [] },
        }),
      ),
      [{ name: 'Alice' }],
    );
    const nowhere = { defaultGraphs: ['urn:nope'], namedGraphs: ['urn:nope'] };
    assert.equal(
      await count('SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }', {
        dataset: nowhere,
      }),
      0,
    );
    assert.deepEqual(await store().query('ASK { ?s ?p ?o }', { dataset: { defaultGraphs: [g1], namedGraphs: [] } }), {
      form: 'ASK',
      boolean: true,
    });
    const refused = await rejects(
      store().query('ASK {}', { dataset: { defaultGraphs: ['not an IRI'], namedGraphs: [] } }),
      'store.invalid-graph',
      400,
    );
    assert.match(refused.message, /not an absolute IRI: "not an IRI"/);
    await rejects(
      store().query('ASK {}', { dataset: { defaultGraphs: [], namedGraphs: ['relative/graph'] } }),
      'store.invalid-graph',
      400,
    );
  });

  it('a dataset of every session graph answers as the union, and stops being every graph when a session is added or removed', async () => {
    await store().ingest(sample);
    const every = { defaultGraphs: [g1, g2, 'urn:nope'], namedGraphs: [g1, g2] };
    const names = async (options = {}) =>
      rowsOf(
        await store().query(
          'SELECT ?g ?name WHERE { { ?who <urn:x:name> ?name } UNION { GRAPH ?g { ?who <urn:x:name> ?name } } } ORDER BY ?g ?name',
          options,
        ),
      );
    assert.deepEqual(await names({ dataset: every }), await names());
    const g3 = 'urn:mcp-ld:session/test-3';
    await store().ingest(`<urn:x:carol> <urn:x:name> "Carol" <${g3}> .\n`);
    const seen = await names({ dataset: every });
    assert.deepEqual(seen, [{ name: 'Alice' }, { name: 'Bob' }, { g: g1, name: 'Alice' }, { g: g2, name: 'Bob' }]);
    assert.equal((await names()).length, 6);
    assert.ok(await store().deleteGraph(g2));
    assert.deepEqual(await names({ dataset: { defaultGraphs: [g1, g3], namedGraphs: [g1, g3] } }), await names());
    assert.deepEqual(await names({ dataset: { defaultGraphs: [g1, g3], namedGraphs: [g1, g3, g2] } }), await names());
  });

  it('ASK answers true and false', async () => {
    await store().ingest(sample);
    assert.deepEqual(await store().query('ASK { ?s <urn:x:name> "Bob" }'), { form: 'ASK', boolean: true });
    assert.deepEqual(await store().query('ASK { ?s <urn:x:name> "Carol" }'), { form: 'ASK', boolean: false });
    assert.deepEqual(await store().query('ASK { <urn:x:bob> ?p ?o }', { graph: g1 }), { form: 'ASK', boolean: false });
  });

  it('CONSTRUCT gives quads in the default graph', async () => {
    await store().ingest(sample);
    const result = await store().query('PREFIX x: <urn:x:> CONSTRUCT { ?a x:friendOf ?b } WHERE { ?a x:knows ?b }');
    assert.equal(result.form, 'CONSTRUCT');
    if (result.form !== 'CONSTRUCT') return;
    assert.equal(result.quads.length, 1);
    const [q] = result.quads;
    assert.equal(q!.subject.value, 'urn:x:alice');
    assert.equal(q!.predicate.value, 'urn:x:friendOf');
    assert.equal(q!.object.value, 'urn:x:bob');
    assert.equal(q!.graph.termType, 'DefaultGraph');
  });

  it('graphs() lists every session graph with its size', async () => {
    assert.deepEqual(await store().graphs(), []);
    await store().ingest(sample);
    assert.deepEqual(await store().graphs(), [
      { graph: g1, quads: 3 },
      { graph: g2, quads: 3 },
    ]);
  });

  it('graphQuads() gives the quads of one graph, in that graph, and nothing for an unknown graph', async () => {
    await store().ingest(sample);
    const quads = await store().graphQuads(g1);
    assert.equal(quads.length, 3);
    assert.ok(quads.every((q) => q.graph.value === g1 && q.subject.value === 'urn:x:alice'));
    assert.deepEqual(await store().graphQuads('urn:mcp-ld:session/none'), []);
  });

  it('deleteGraph() removes one session graph and says whether there was one', async () => {
    await store().ingest(sample);
    assert.equal(await store().deleteGraph(g1), true);
    assert.equal(await store().deleteGraph(g1), false);
    assert.deepEqual(await store().graphs(), [{ graph: g2, quads: 3 }]);
    assert.equal(await store().size(), 3);
    assert.deepEqual(await store().query('ASK { ?s <urn:x:name> "Alice" }'), { form: 'ASK', boolean: false });
  });

  it('ingesting the same batch again changes nothing', async () => {
    await store().ingest(sample);
    await store().ingest(sample);
    assert.equal(await store().size(), 6);
  });

  it('invalid N-Quads are rejected (400, naming the line) and nothing of the batch is stored', async () => {
    await store().ingest(sample);
    const bad = `<urn:x:carol> <urn:x:name> "Carol" <${g1}> .\n<urn:x:carol> <urn:x:age> 42 <${g1}> .\n`;
    const error = await rejects(store().ingest(bad), 'store.invalid-nquads', 400);
    assert.match(error.message, /line 2/);
    await rejects(store().ingest(`<urn:x:carol> <urn:x:name> "Carol" .\n`), 'store.invalid-nquads', 400);
    await rejects(store().ingest(`<relative> <urn:x:name> "Carol" <${g1}> .\n`), 'store.invalid-nquads', 400);
    assert.equal(await store().size(), 6);
    assert.deepEqual(await store().query('ASK { ?s <urn:x:name> "Carol" }'), { form: 'ASK', boolean: false });
  });

  it('refuses updates and malformed queries with query.invalid (400)', async () => {
    await rejects(store().query('INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> <urn:c> } }'), 'query.invalid', 400);
    await rejects(store().query('SELECT * WHERE { ?s ?p ?o'), 'query.invalid', 400);
  });

  it('update applies INSERT DATA, DELETE WHERE and DELETE/INSERT … WHERE to session graphs', async () => {
    await store().ingest(sample);
    await store().update(`INSERT DATA { GRAPH <${g1}> { <urn:x:carol> <urn:x:name> "Carol" ; <urn:x:age> 7 } }`);
    assert.equal(await store().size(), 8);
    assert.deepEqual(rowsOf(await store().query('SELECT ?age WHERE { ?s <urn:x:name> "Carol" ; <urn:x:age> ?age }')), [
      { age: '7' },
    ]);
    await store().update('DELETE WHERE { GRAPH ?g { <urn:x:carol> ?p ?o } }');
    assert.equal(await store().size(), 6);
    await store().update(
      'DELETE { GRAPH ?g { ?s <urn:x:name> "Alice" } } INSERT { GRAPH ?g { ?s <urn:x:name> "Alicia" } } WHERE { GRAPH ?g { ?s <urn:x:name> "Alice" } }',
    );
    assert.deepEqual(rowsOf(await store().query('SELECT ?name WHERE { ?s <urn:x:name> ?name } ORDER BY ?name')), [
      { name: 'Alicia' },
      { name: 'Bob' },
    ]);
    assert.deepEqual(await store().graphs(), [
      { graph: g1, quads: 3 },
      { graph: g2, quads: 3 },
    ]);
  });

  it('an update that empties a graph removes it; DROP SILENT GRAPH removes one', async () => {
    await store().ingest(sample);
    await store().update(`DELETE WHERE { GRAPH <${g1}> { ?s ?p ?o } }`);
    assert.deepEqual(await store().graphs(), [{ graph: g2, quads: 3 }]);
    await store().update(`DROP SILENT GRAPH <${g2}>`);
    assert.deepEqual(await store().graphs(), []);
    assert.equal(await store().size(), 0);
  });

  it('an update the store cannot read is refused with update.failed (400) and changes nothing', async () => {
    await store().ingest(sample);
    await rejects(store().update(`INSERT DATA { GRAPH <${g1}> { <urn:x:carol> <urn:x:name> } }`), 'update.failed', 400);
    assert.equal(await store().size(), 6);
  });

  it('stores the real capture: every lifted quad, queryable over the union', async () => {
    const nquads = corpusNQuads();
    const lines = nquads.split('\n').filter((l) => l !== '').length;
    const receipt = await store().ingest(nquads);
    assert.equal(receipt.quads, lines);
    assert.equal(await store().size(), lines);
    const count = rowsOf(await store().query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'));
    assert.equal(Number(count[0]!['n']), lines);
    const calls = rowsOf(
      await store().query(
        'SELECT (COUNT(?m) AS ?n) WHERE { ?m a <http://modelcontextprotocol.io/ontology#CallToolRequest> }',
      ),
    );
    assert.ok(Number(calls[0]!['n']) > 0);
  });

  it('refuses an answer past maxRows or maxBytes with query.result-too-large (422), and answers one at the limits', async () => {
    await store().ingest(sample);
    const all = 'SELECT * WHERE { ?s ?p ?o }';
    assert.equal(rowsOf(await store().query(all, { maxRows: 6 })).length, 6);
    assert.match(
      (await rejects(store().query(all, { maxRows: 5 }), 'query.result-too-large', 422)).message,
      /more than the limit of 5 rows \(MCPLD_MAX_RESULT_ROWS\)/,
    );
    assert.match(
      (await rejects(store().query(all, { maxBytes: 200 }), 'query.result-too-large', 422)).message,
      /larger than the limit of 200 bytes \(MCPLD_MAX_RESULT_BYTES\)/,
    );
    // How much a DESCRIBE gives is the engine's choice (Virtuoso adds the triples that point at the resource).
    const whole = await store().query('DESCRIBE <urn:x:bob>');
    const triples = whole.form === 'DESCRIBE' ? whole.quads.length : 0;
    assert.ok(triples >= 3);
    await rejects(store().query('DESCRIBE <urn:x:bob>', { maxRows: triples - 1 }), 'query.result-too-large', 422);
    const described = await store().query('DESCRIBE <urn:x:bob>', { maxRows: triples });
    assert.equal(described.form === 'DESCRIBE' && described.quads.length, triples);
  });

  it('a cartesian product, bounded by runQuery, ends in query.result-too-large; a CONSTRUCT counts its solutions, not its triples', async () => {
    await store().ingest(sample);
    const limits = { maxRows: 30 };
    await rejects(runQuery(store(), 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }', limits), 'query.result-too-large', 422);
    assert.equal(rowsOf(await runQuery(store(), 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } LIMIT 30', limits)).length, 30);
    assert.equal(
      rowsOf(await runQuery(store(), 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } LIMIT 36', { maxRows: 36 })).length,
      36,
    );
    const error = await rejects(
      runQuery(store(), 'CONSTRUCT { <urn:x:any> <urn:x:pair> true } WHERE { ?a ?b ?c . ?d ?e ?f }', limits),
      'query.result-too-large',
      422,
    );
    assert.match(error.message, /WHERE clause gives more than the limit of 30 solutions/);
    const graph = await runQuery(
      store(),
      'CONSTRUCT { ?a <urn:x:pair> ?d } WHERE { ?a ?b ?c . ?d ?e ?f FILTER(?b = <urn:x:name> && ?e = <urn:x:name>) }',
      limits,
    );
    assert.equal(graph.form, 'CONSTRUCT');
    if (graph.form === 'CONSTRUCT') {
      assert.equal(graph.quads.length, 4, 'the marker triples that counted the solutions are not in the answer');
      assert.ok(graph.quads.every((q) => q.predicate.value === 'urn:x:pair'));
    }
  });
}
