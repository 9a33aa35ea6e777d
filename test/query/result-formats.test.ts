import assert from 'node:assert/strict';
import type { Quad, Term } from '@rdfjs/types';
import oxigraph from 'oxigraph';
import { Parser as TurtleParser } from 'n3';
import { McpLdError } from '../../src/core/problem.js';
import { resultsJson, writeResult, type ResultFormat } from '../../src/query/index.js';
import type { QueryResult } from '../../src/store/quad-store.js';

// Tricky literals: separators, quotes, line breaks, tabs, a language tag, typed numbers and booleans, a blank node.
const data = `
<urn:x:1> <urn:p:text> "comma, \\"quoted\\" and\\nline" <urn:g> .
<urn:x:1> <urn:p:tab> "tab\\there\\r\\nCRLF" <urn:g> .
<urn:x:1> <urn:p:lang> "bonjour"@fr <urn:g> .
<urn:x:1> <urn:p:int> "42"^^<http://www.w3.org/2001/XMLSchema#integer> <urn:g> .
<urn:x:1> <urn:p:dec> "1.50"^^<http://www.w3.org/2001/XMLSchema#decimal> <urn:g> .
<urn:x:1> <urn:p:bool> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> <urn:g> .
<urn:x:1> <urn:p:date> "2026-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> <urn:g> .
<urn:x:1> <urn:p:json> "{\\"a\\":[1,2]}"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON> <urn:g> .
<urn:x:1> <urn:p:amp> "<a & b>" <urn:g> .
<urn:x:2> <urn:p:blank> _:b1 <urn:g> .
`;

const select = 'SELECT ?s ?p ?o ?unbound WHERE { ?s ?p ?o } ORDER BY ?s ?p';
const variables = ['s', 'p', 'o', 'unbound'];

describe('query: result formats (SPARQL 1.1 JSON, XML, CSV, TSV; table; graphs)', () => {
  const store = new oxigraph.Store();
  store.load(data, { format: 'application/n-quads' });
  const options = { use_default_graph_as_union: true };
  const rows = store.query(select, options) as Map<string, Term>[];
  const solutions: QueryResult = { form: 'SELECT', variables, rows };
  const oxigraphText = (format: string, query = select) =>
    store.query(query, { ...options, results_format: format }) as string;

  it('writes the SPARQL 1.1 JSON results format as the spec shapes it, and as Oxigraph writes it', async () => {
    const json = JSON.parse(await writeResult(solutions, 'json'));
    assert.deepEqual(Object.keys(json).sort(), ['head', 'results']);
    assert.deepEqual(json.head.vars, variables);
    assert.ok(Array.isArray(json.results.bindings));
    for (const binding of json.results.bindings) {
      assert.ok(!('unbound' in binding), 'an unbound variable has no entry');
      for (const value of Object.values(binding) as Record<string, string>[]) {
        assert.ok(['uri', 'literal', 'bnode'].includes(value['type']!));
        assert.equal(typeof value['value'], 'string');
        assert.ok(!('datatype' in value && 'xml:lang' in value));
        assert.notEqual(value['datatype'], 'http://www.w3.org/2001/XMLSchema#string');
      }
    }
    const oxi = JSON.parse(oxigraphText('json'));
    // Blank node labels are the engine's; everything else is the same.
    const label = (j: { results: { bindings: Record<string, { type: string; value: string }>[] } }) =>
      j.results.bindings.map((b) =>
        Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v.type === 'bnode' ? { type: 'bnode' } : v])),
      );
    assert.deepEqual(label(json), label(oxi));
    assert.deepEqual(json.head, oxi.head);
    const ask = JSON.parse(await writeResult({ form: 'ASK', boolean: true }, 'json'));
    assert.deepEqual(ask, { head: {}, boolean: true });
    assert.deepEqual(
      resultsJson({ form: 'ASK', boolean: false }),
      JSON.parse(oxigraphText('json', 'ASK { <urn:none> ?p ?o }')),
    );
  });

  it('writes CSV as the spec does: lexical values, quoted fields, doubled quotes, CRLF — byte for byte as Oxigraph', async () => {
    const csv = await writeResult(solutions, 'csv');
    assert.equal(csv.replace(/_:[A-Za-z0-9]+/g, '_:b'), oxigraphText('csv').replace(/_:[A-Za-z0-9]+/g, '_:b'));
    assert.ok(csv.startsWith('s,p,o,unbound\r\n'));
    assert.ok(csv.includes('"comma, ""quoted"" and\nline"'));
    assert.ok(csv.split('\r\n').every((line) => !line.endsWith('\r')));
  });

  it('writes TSV as the spec does: ?variables, terms in Turtle syntax, tabs and line breaks escaped — as Oxigraph', async () => {
    const tsv = await writeResult(solutions, 'tsv');
    assert.equal(tsv.replace(/_:[A-Za-z0-9]+/g, '_:b'), oxigraphText('tsv').replace(/_:[A-Za-z0-9]+/g, '_:b'));
    const lines = tsv.split('\n');
    assert.equal(lines[0], '?s\t?p\t?o\t?unbound');
    assert.ok(
      lines.slice(1, -1).every((line) => line.split('\t').length === 4),
      'no raw tab or line break inside a term',
    );
    assert.ok(tsv.includes('"tab\\there\\r\\nCRLF"'));
    assert.ok(tsv.includes('"bonjour"@fr'));
  });

  it('writes the SPARQL XML results format with escaped text', async () => {
    const xml = await writeResult(solutions, 'xml');
    assert.match(xml, /^<\?xml version="1\.0"\?>\n<sparql xmlns="http:\/\/www\.w3\.org\/2005\/sparql-results#">/);
    assert.match(
      xml,
      /<head><variable name="s"\/><variable name="p"\/><variable name="o"\/><variable name="unbound"\/><\/head>/,
    );
    assert.ok(xml.includes('<literal>&lt;a &amp; b&gt;</literal>'));
    assert.ok(xml.includes('<literal xml:lang="fr">bonjour</literal>'));
    assert.ok(xml.includes('<literal datatype="http://www.w3.org/2001/XMLSchema#integer">42</literal>'));
    assert.ok(xml.includes('tab\there&#13;\nCRLF'), 'a carriage return survives XML line-end normalisation');
    assert.match(xml, /<binding name="o"><bnode>[^<]+<\/bnode><\/binding>/);
    assert.equal((xml.match(/<result>/g) ?? []).length, rows.length);
    // The same bindings as Oxigraph's XML, once both are reduced to their text and attributes (Oxigraph writes a
    // carriage return raw, which an XML reader turns into a line feed).
    const reduce = (text: string) =>
      text
        .replace(/>\s+</g, '><')
        .replace(/&#10;/g, '\n')
        .replace(/&#13;/g, '\r')
        .replace(/<bnode>[^<]*<\/bnode>/g, '<bnode/>')
        .replace(/<head\/>/g, '<head></head>')
        .trim();
    assert.equal(reduce(xml), reduce(oxigraphText('xml')));
    assert.equal(
      reduce(await writeResult({ form: 'ASK', boolean: true }, 'xml')),
      reduce(oxigraphText('xml', 'ASK { ?s ?p ?o }')),
    );
  });

  it('writes an aligned table: one line per solution, numbers to the right, long cells shortened, a count', async () => {
    const long = {
      form: 'SELECT',
      variables: ['name', 'n'],
      rows: [
        new Map<string, Term>([
          ['name', oxigraph.literal('x'.repeat(150))],
          ['n', oxigraph.literal('7', oxigraph.namedNode('http://www.w3.org/2001/XMLSchema#integer'))],
        ]),
        new Map<string, Term>([
          ['name', oxigraph.literal('two\nlines')],
          ['n', oxigraph.literal('12345', oxigraph.namedNode('http://www.w3.org/2001/XMLSchema#integer'))],
        ]),
        new Map<string, Term>([
          ['name', oxigraph.namedNode('http://modelcontextprotocol.io/ontology#CallToolRequest')],
        ]),
      ],
    } as QueryResult;
    const table = (await writeResult(long, 'table')).split('\n');
    assert.match(table[0]!, /^name\s+n$/);
    assert.match(table[1]!, /^-+ {2}-+$/);
    assert.ok(table[2]!.includes('…') && [...table[2]!.split('  ')[0]!].length === 100);
    assert.match(table[3]!, /^two\\nlines\s+12345$/);
    assert.match(table[2]!, / {4}7$/, 'numbers are right-aligned');
    assert.match(table[4]!, /^mcp:CallToolRequest/);
    assert.equal(table[5], '(3 rows)');
    assert.equal(await writeResult({ form: 'ASK', boolean: false }, 'table'), 'false\n');
  });

  it('writes times in a table in one fixed form, means and rates rounded, IRIs compacted wherever a prefix fits', async () => {
    const xsdType = (name: string) => oxigraph.namedNode(`http://www.w3.org/2001/XMLSchema#${name}`);
    const rows = [
      [
        '2026-12-01T22:56:06Z',
        '264.096774193548387096',
        '0.333333333333333333',
        'http://modelcontextprotocol.io/ontology#io.modelcontextprotocol/clientInfo',
      ],
      ['2026-12-01T22:56:06.75Z', '1503', '0.0000123456', 'https://w3id.org/mcp-ld/ext#x%2Fy'],
      ['2026-12-01T22:56:06.123456Z', '2.5', '1', 'urn:mcp-ld:session/s'],
    ].map(
      ([at, avg, rate, iri]) =>
        new Map<string, Term>([
          ['at', oxigraph.literal(at!, xsdType('dateTime'))],
          ['avg', oxigraph.literal(avg!, xsdType('decimal'))],
          ['rate', oxigraph.literal(rate!, xsdType('double'))],
          ['iri', oxigraph.namedNode(iri!)],
        ]),
    );
    const table = await writeResult(
      { form: 'SELECT', variables: ['at', 'avg', 'rate', 'iri'], rows } as QueryResult,
      'table',
    );
    assert.deepEqual(
      table
        .split('\n')
        .slice(2, 5)
        .map((line) => line.split(/ {2,}/)),
      [
        ['2026-12-01T22:56:06.000Z', '264.097', '0.333', 'mcp:io.modelcontextprotocol/clientInfo'],
        ['2026-12-01T22:56:06.750Z', '1503', '0.0000123', 'mldx:x%2Fy'],
        ['2026-12-01T22:56:06.123456Z', '2.5', '1', '<urn:mcp-ld:session/s>'],
      ],
    );
    // The other formats keep every digit and the lexical form.
    const csv = await writeResult(
      { form: 'SELECT', variables: ['at', 'avg', 'rate', 'iri'], rows } as QueryResult,
      'csv',
    );
    assert.match(csv, /2026-12-01T22:56:06Z,264\.096774193548387096,0\.333333333333333333,/);
  });

  const construct = store.query('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', options) as Quad[];
  const graph: QueryResult = { form: 'CONSTRUCT', quads: construct };
  const sameTriples = (quads: Quad[]) => {
    const key = (q: Quad) =>
      `${q.subject.termType === 'BlankNode' ? '_' : q.subject.value} ${q.predicate.value} ${q.object.termType === 'BlankNode' ? '_' : q.object.termType === 'Literal' ? JSON.stringify([q.object.value, (q.object as { language: string }).language, (q.object as { datatype: { value: string } }).datatype.value]) : q.object.value}`;
    assert.deepEqual(quads.map(key).sort(), construct.map(key).sort());
  };

  it('writes CONSTRUCT and DESCRIBE graphs as N-Triples, N-Quads, Turtle and JSON-LD that read back to the same triples', async () => {
    for (const format of ['ntriples', 'nquads', 'turtle'] as ResultFormat[]) {
      const text = await writeResult(graph, format);
      sameTriples(
        new TurtleParser({
          format: format === 'turtle' ? 'Turtle' : format === 'nquads' ? 'N-Quads' : 'N-Triples',
        }).parse(text) as unknown as Quad[],
      );
    }
    const { default: jsonld } = await import('jsonld');
    const expanded = JSON.parse(await writeResult(graph, 'jsonld'));
    const nquads = (await jsonld.toRDF(expanded, { format: 'application/n-quads' })) as unknown as string;
    sameTriples(new TurtleParser({ format: 'N-Quads' }).parse(nquads) as unknown as Quad[]);
    const described = store.query('DESCRIBE <urn:x:1>', options) as Quad[];
    assert.ok(
      (await writeResult({ form: 'DESCRIBE', quads: described }, 'ntriples')).includes(
        '<urn:x:1> <urn:p:int> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .',
      ),
    );
  });

  it('refuses a format that does not fit the query form', async () => {
    await assert.rejects(
      writeResult(graph, 'csv'),
      (error: unknown) =>
        error instanceof McpLdError && error.code === 'query.format-mismatch' && /turtle/.test(error.detail),
    );
    await assert.rejects(
      writeResult(solutions, 'turtle'),
      (error: unknown) => error instanceof McpLdError && error.code === 'query.format-mismatch',
    );
  });
});
