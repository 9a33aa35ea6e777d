import assert from 'node:assert/strict';
import { Parser } from 'sparqljs';
import { boundRows, parseQuery } from '../../src/query/index.js';
import { solutionMarker } from '../../src/store/result-limits.js';

/** The LIMIT of a text, read back by the parser. */
function limitOf(text: string): number | undefined {
  return (new Parser().parse(text) as { limit?: number }).limit;
}

describe('query: bounding the rows a store produces', () => {
  it('gives a SELECT without LIMIT, or with a larger one, LIMIT maxRows + 1, keeping ORDER BY, OFFSET and a trailing VALUES', () => {
    const bounded = boundRows(
      parseQuery('SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s OFFSET 3 VALUES ?p { mld:order }'),
      100,
    );
    assert.equal(bounded.maxRows, 100);
    const tree = new Parser().parse(bounded.text) as {
      limit?: number;
      offset?: number;
      order?: unknown[];
      values?: unknown[];
    };
    assert.equal(tree.limit, 101);
    assert.equal(tree.offset, 3);
    assert.equal(tree.order?.length, 1);
    assert.equal(tree.values?.length, 1);
    assert.equal(limitOf(boundRows(parseQuery('SELECT * WHERE { ?s ?p ?o } LIMIT 5000'), 100).text), 101);
  });

  it('leaves a query that cannot exceed the bound as it was written: a SELECT with LIMIT up to maxRows, ASK, DESCRIBE, or no bound', () => {
    for (const text of [
      'SELECT * WHERE { ?s ?p ?o } LIMIT 100',
      'ASK { ?s ?p ?o }',
      'DESCRIBE ?s WHERE { ?s ?p ?o }',
      'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 7',
    ]) {
      const parsed = parseQuery(text);
      assert.equal(boundRows(parsed, 100).text, parsed.text, text);
    }
    const parsed = parseQuery('SELECT * WHERE { ?s ?p ?o }');
    assert.deepEqual(boundRows(parsed, undefined), { form: 'SELECT', text: parsed.text });
  });

  it('gives an ordered query no LIMIT past the rows its store sorts for one (Virtuoso refuses it, SR353): it is cut as read', () => {
    const ordered = parseQuery('SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s');
    assert.deepEqual(boundRows(ordered, 100_000, 10_000), { form: 'SELECT', text: ordered.text, maxRows: 100_000 });
    assert.equal(limitOf(boundRows(ordered, 100, 10_000).text), 101);
    assert.equal(limitOf(boundRows(parseQuery('SELECT ?s WHERE { ?s ?p ?o }'), 100_000, 10_000).text), 100_001);
  });

  it('gives a CONSTRUCT LIMIT maxRows + 1 and one marker triple per solution, with a fresh blank node', () => {
    const text = boundRows(parseQuery('CONSTRUCT { ?s mld:seen true } WHERE { ?s ?p ?o }'), 10).text;
    const tree = new Parser().parse(text) as {
      limit?: number;
      template?: { subject: { termType: string }; predicate: { value: string } }[];
    };
    assert.equal(tree.limit, 11);
    assert.deepEqual(
      tree.template?.map((t) => [t.subject.termType, t.predicate.value]),
      [
        ['Variable', 'https://w3id.org/mcp-ld/ns#seen'],
        ['BlankNode', solutionMarker],
      ],
    );
  });
});
