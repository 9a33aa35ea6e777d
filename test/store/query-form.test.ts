import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser, type Query } from 'sparqljs';
import { packageRoot } from '../../src/core/paths.js';
import { prefixPrologue } from '../../src/query/prefixes.js';
import { queryShape, withoutDatasetClauses } from '../../src/store/query-form.js';

/** The FROM / FROM NAMED graphs as sparqljs reads them: the oracle the scan must agree with. */
function parsedDataset(text: string): { defaultGraphs: string[]; namedGraphs: string[] } | undefined {
  const tree = new Parser().parse(text) as Query;
  if (!tree.from) return undefined;
  return { defaultGraphs: tree.from.default.map((g) => g.value), namedGraphs: tree.from.named.map((g) => g.value) };
}

const tricky = [
  'SELECT * WHERE { ?s ?p "FROM <urn:in-a-string>" }',
  'SELECT *FROM<urn:g1>WHERE{?s ?p ?o}',
  'select ?from from <urn:g1> from named <urn:g2> { ?s ?p ?from }',
  'SELECT (EXISTS { ?s ?p "FROM <urn:x>" } AS ?e) (CONCAT(")", "(") AS ?c) FROM <urn:g1> WHERE { }',
  "SELECT ('''it's ) FROM''' AS ?x) # FROM <urn:comment>\nFROM <urn:g1> WHERE {}",
  'SELECT (1<2 AS ?lt) FROM <urn:g1> {}',
  'SELECT DISTINCT ?s { { SELECT ?s WHERE { ?s ?p ?o } } }',
  'PREFIX from: <urn:from:> SELECT * FROM from:g1 FROM NAMED from:g2 WHERE { ?s from:p ?o }',
  'PREFIX : <urn:x:> SELECT * FROM :g1.a FROM :{}',
  'BASE <urn:mcp-ld:session/> PREFIX s: <sub/> SELECT * FROM <a> FROM NAMED s:b WHERE {}',
  'CONSTRUCT { ?s <urn:x:says> "FROM <urn:nope>" . ?s ?p [ <urn:x:q> ( 1 2 ) ] } FROM <urn:g1> WHERE { ?s ?p ?o }',
  'CONSTRUCT FROM <urn:g1> FROM <urn:g2> WHERE { ?s ?p ?o }',
  'CONSTRUCT WHERE { ?s ?p ?o }',
  'DESCRIBE <urn:x:a> ?b <urn:x:FROM> FROM NAMED <urn:g2> WHERE { ?b ?p ?o }',
  'DESCRIBE <urn:x:a>',
  'ASK FROM <urn:nope> { ?s ?p ?o }',
  'ASK { ?s ?p ?o } # FROM <urn:g>',
  `${prefixPrologue}SELECT ?m FROM mld:graph WHERE { ?m a mcp:CallToolRequest }`,
];

describe('store: query form and dataset scan', () => {
  it('names the graphs of FROM and FROM NAMED as sparqljs does, past strings, comments, brackets and templates', () => {
    for (const text of tricky) assert.deepEqual(queryShape(text).dataset, parsedDataset(text), text);
  });

  it('agrees with sparqljs on every named query: none names a dataset, and each has its form', () => {
    const dir = path.join(packageRoot, 'queries');
    const files = readdirSync(dir).filter((f) => f.endsWith('.rq'));
    assert.ok(files.length >= 20);
    for (const file of files) {
      const text = prefixPrologue + readFileSync(path.join(dir, file), 'utf8');
      const shape = queryShape(text);
      assert.equal(shape.form, (new Parser().parse(text) as Query).queryType, file);
      assert.equal(shape.dataset, undefined, file);
    }
  });

  it('takes the FROM / FROM NAMED clauses out of a query (blanked: lines and columns stay), leaving a query without a dataset', () => {
    for (const text of tricky) {
      const stripped = withoutDatasetClauses(text, queryShape(text));
      assert.equal(stripped.length, text.length);
      assert.equal(stripped.split('\n').length, text.split('\n').length);
      assert.equal(queryShape(stripped).dataset, undefined, stripped);
      assert.equal(parsedDataset(stripped), undefined, stripped);
    }
    assert.equal(
      withoutDatasetClauses(
        'ASK FROM <urn:g1> # one\nFROM NAMED <urn:g2> {}',
        queryShape('ASK FROM <urn:g1> # one\nFROM NAMED <urn:g2> {}'),
      ),
      `ASK ${' '.repeat(19)}\n${' '.repeat(19)} {}`,
    );
  });

  it('resolves relative IRIs against the BASE as RFC 3986 (and Oxigraph) do', () => {
    // sparqljs neither removes dot segments nor reads network-path references.
    assert.deepEqual(
      queryShape(
        'BASE <http://example.org/a/b/> SELECT * FROM <../c> FROM <d?e#f> FROM NAMED <//other.example/g> WHERE {}',
      ).dataset,
      {
        defaultGraphs: ['http://example.org/a/c', 'http://example.org/a/b/d?e#f'],
        namedGraphs: ['http://other.example/g'],
      },
    );
  });

  it('reads an escaped local name as the spec (and Oxigraph) does: `\\.` stands for a dot', () => {
    // sparqljs keeps the backslash; the engine that runs the query does not.
    assert.deepEqual(queryShape('PREFIX x: <urn:x:> ASK FROM x:g\\.2 FROM x:a\\~b {}').dataset, {
      defaultGraphs: ['urn:x:g.2', 'urn:x:a~b'],
      namedGraphs: [],
    });
  });

  it('refuses a FROM without an IRI and one whose prefix is not declared', () => {
    assert.throws(() => queryShape('SELECT * FROM WHERE {}'), /FROM and FROM NAMED take an IRI/);
    assert.throws(() => queryShape('SELECT * FROM nope:g WHERE {}'), /the prefix nope: of FROM nope:g is not declared/);
  });
});
