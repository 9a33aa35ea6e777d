import assert from 'node:assert/strict';
import { McpLdError } from '../../src/core/problem.js';
import { parseQuery } from '../../src/query/index.js';
import { thrownError } from '../helpers/mcp-ld-error.js';

function refused(text: string, code: string, pattern?: RegExp): McpLdError {
  return thrownError(() => parseQuery(text), { code, status: 400, ...(pattern ? { detail: pattern } : {}) });
}

describe('query: parsing and refusals', () => {
  it('reads SELECT, ASK, CONSTRUCT and DESCRIBE, with the mcp:, jrpc:, mld:, mldx:, rdf:, rdfs:, xsd: prefixes predeclared', () => {
    assert.equal(
      parseQuery(
        'SELECT ?m WHERE { ?m a mcp:CallToolRequest ; mld:inSession ?s ; mldx:x ?y ; rdfs:label ?l ; jrpc:hasId ?i }',
      ).form,
      'SELECT',
    );
    assert.equal(parseQuery('ASK { ?m a mld:Session }').form, 'ASK');
    assert.equal(parseQuery('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }').form, 'CONSTRUCT');
    assert.equal(parseQuery('DESCRIBE <urn:x>').form, 'DESCRIBE');
    // The text a store runs declares the prefixes before the query, so the query's own declarations win.
    const parsed = parseQuery('PREFIX mcp: <http://example.org/other#>\nSELECT * WHERE { ?s mcp:p ?o }');
    assert.ok(
      parsed.text.indexOf('PREFIX mcp: <http://modelcontextprotocol.io/ontology#>') <
        parsed.text.indexOf('PREFIX mcp: <http://example.org/other#>'),
    );
  });

  it('refuses SERVICE wherever it is: top level, OPTIONAL, UNION, MINUS, GRAPH, sub-query, FILTER EXISTS, a variable endpoint', () => {
    const wrapped = [
      'SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }',
      'SELECT * WHERE { ?s ?p ?o OPTIONAL { SERVICE <http://example.org/sparql> { ?s ?q ?r } } }',
      'SELECT * WHERE { { ?s ?p ?o } UNION { SERVICE SILENT <http://example.org/sparql> { ?s ?p ?o } } }',
      'SELECT * WHERE { ?s ?p ?o MINUS { SERVICE <http://example.org/sparql> { ?s ?p ?o } } }',
      'SELECT * WHERE { GRAPH ?g { SERVICE <http://example.org/sparql> { ?s ?p ?o } } }',
      'SELECT * WHERE { { SELECT ?s WHERE { { SERVICE <http://example.org/sparql> { ?s ?p ?o } } } } }',
      'SELECT * WHERE { ?s ?p ?o FILTER EXISTS { SERVICE <http://example.org/sparql> { ?s ?p ?o } } }',
      'SELECT * WHERE { ?s ?p ?o FILTER(NOT EXISTS { { SERVICE <http://example.org/sparql> { ?s ?p ?o } } }) }',
      'ASK { SERVICE ?endpoint { ?s ?p ?o } }',
      'CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }',
    ];
    for (const text of wrapped) refused(text, 'query.service-refused', /SERVICE/);
    const error = refused(
      'SELECT *\nWHERE {\n  ?s ?p ?o .\n  SERVICE <http://example.org/sparql> { ?s ?p ?o }\n}',
      'query.service-refused',
    );
    assert.match(error.detail, /SERVICE <http:\/\/example\.org\/sparql> at line 4, column 3/);
    assert.equal(error.line, 4);
    // The word inside a string or an IRI is no SERVICE.
    assert.equal(parseQuery('SELECT * WHERE { ?s ?p "SERVICE <http://x> { }" . ?s <urn:SERVICE> ?o }').form, 'SELECT');
  });

  it('refuses updates: INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY, even when the parser cannot read them', () => {
    const updates: [string, RegExp][] = [
      ['INSERT DATA { <urn:a> <urn:b> <urn:c> }', /INSERT DATA/],
      ['DELETE DATA { <urn:a> <urn:b> <urn:c> }', /DELETE DATA/],
      ['DELETE WHERE { ?s ?p ?o }', /DELETE WHERE/],
      ['DELETE { ?s ?p ?o } INSERT { ?s ?p "x" } WHERE { ?s ?p ?o }', /INSERT\/DELETE/],
      ['WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }', /INSERT\/DELETE/],
      ['LOAD <http://example.org/data.ttl>', /LOAD/],
      ['CLEAR ALL', /CLEAR/],
      ['DROP ALL', /DROP/],
      ['DROP GRAPH <urn:mcp-ld:session/x>', /DROP/],
      ['CREATE GRAPH <urn:g>', /CREATE/],
      ['ADD <urn:a> TO <urn:b>', /ADD/],
      ['MOVE <urn:a> TO <urn:b>', /MOVE/],
      ['COPY <urn:a> TO <urn:b>', /COPY/],
      ['PREFIX ex: <http://example.org/>\nINSERT DATA { ex:a ex:b ex:c } ; DROP ALL', /INSERT DATA, DROP/],
      // Relative IRIs: the parser gives up before it knows the form; still an update.
      ['INSERT DATA { <a> <b> <c> }', /INSERT/],
      ['# a comment\nPREFIX x: <y>\n drop all', /DROP/],
    ];
    for (const [text, pattern] of updates) refused(text, 'query.update-refused', pattern);
  });

  it('reports malformed SPARQL with the line and column of the offending token', () => {
    const missing = refused('SELECT ?s\nWHERE {\n  ?s ?p ?o\n  FILTER(?o = )\n}', 'query.malformed');
    assert.match(missing.detail, /^line 4, column 15: unexpected '\)'; expected /);
    assert.equal(missing.line, 4);
    const iri = refused('SELECT * WHERE { ?s <urn:a ?o }', 'query.malformed');
    assert.match(iri.detail, /^line 1, column 21: /);
    const end = refused('SELECT * WHERE { ?s ?p ?o', 'query.malformed', /the end of the query/);
    assert.match(end.detail, /^line 1, column 26: /);
    refused('', 'query.malformed');
    refused('SELEKT * WHERE { ?s ?p ?o }', 'query.malformed', /^line 1, column 1: /);
  });

  it('names an unknown prefix, a relative IRI and an ungrouped variable where they are', () => {
    assert.match(
      refused('SELECT *\nWHERE { ?s foo:bar ?o }', 'query.malformed').detail,
      /^line 2, column 12: Unknown prefix: foo/,
    );
    assert.match(
      refused('SELECT * WHERE {\n ?s <relative> ?o }', 'query.malformed').detail,
      /^line 2, column 5: Cannot resolve relative IRI relative/,
    );
    assert.match(
      refused('SELECT ?s ?o WHERE { ?s ?p ?o } GROUP BY ?s', 'query.malformed').detail,
      /^line 1, column 11: Projection of ungrouped variable \(\?o\)/,
    );
    // The prefix in a string, or in a comment, is not the one reported.
    assert.match(
      refused('# foo:bar\nSELECT * WHERE { ?s ?p "foo:bar" . ?s foo:bar ?o }', 'query.malformed').detail,
      /^line 2, column 39: /,
    );
  });

  it('names the query in its messages', () => {
    assert.throws(
      () => parseQuery('SELECT * WHERE { SERVICE <urn:x> { ?s ?p ?o } }', { source: 'mine.rq' }),
      /mine\.rq: SERVICE/,
    );
  });
});
