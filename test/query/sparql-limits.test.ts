import assert from 'node:assert/strict';
import { parseQuery, parseUpdate } from '../../src/query/index.js';
import { checkSparqlLimits, defaultSparqlLimits, tooDeepAt } from '../../src/query/sparql-limits.js';
import { thrownError } from '../helpers/mcp-ld-error.js';

const refusal = (run: () => unknown) => thrownError(run);

const nestedGroups = (n: number) => 'SELECT * WHERE ' + '{'.repeat(n) + ' ?s ?p ?o ' + '}'.repeat(n);

describe('query: size and nesting limits, checked before the parser', () => {
  it('takes 64 levels of braces, parentheses and brackets together, and refuses the 65th with its line and column (400)', () => {
    assert.equal(parseQuery(nestedGroups(64)).form, 'SELECT');
    const mixed =
      'SELECT * WHERE {\n' + '{ ?s ?p [ ?q ( '.repeat(16) + '?o' + ' ) ] }'.repeat(16) + ' FILTER((((?o)))) }';
    assert.equal(tooDeepAt(mixed, 64), -1, 'one group, then 16 × 3 levels, then 4 parentheses: 53');
    const error = refusal(() => parseQuery(nestedGroups(65)));
    assert.equal(error.code, 'query.too-deep');
    assert.equal(error.status, 400);
    assert.match(error.detail, /line 1, column 80: '\{' opens level 65 .* the limit is 64 \(MCPLD_MAX_QUERY_DEPTH\)/);
    assert.equal(error.line, 1);
  });

  it('counts no bracket inside a string, a long string, a comment or an IRI, and reads < as a comparison when it starts no IRI', () => {
    const open = '('.repeat(100);
    const text = `SELECT * WHERE { ?s ?p "${open}" , '${open}' , """${open}\n${open}""" , <http://example.org/${open}> # ${open}\n FILTER(?s < ${'('.repeat(3)}1${')'.repeat(3)}) }`;
    assert.equal(tooDeepAt(text, 5), -1);
    assert.equal(
      tooDeepAt(text, 4),
      text.indexOf('((( 1'.replace(' ', '')) + 2,
      'the fifth level: the third parenthesis after <',
    );
    assert.equal(tooDeepAt('SELECT * { ?s ?p "a\\"((((" }', 1), -1, 'an escaped quote does not end the string');
  });

  it('refuses the attacks of issue 14 at once: 4,000 nested braces, 2,000 nested parentheses in a FILTER, 20,000 nested braces', () => {
    const attacks = [
      nestedGroups(4000),
      'SELECT * WHERE { ?s ?p ?o FILTER(' + '('.repeat(2000) + '?o' + ')'.repeat(2000) + ') }',
      nestedGroups(20_000),
    ];
    for (const text of attacks) {
      const started = performance.now();
      assert.equal(refusal(() => parseQuery(text)).code, 'query.too-deep');
      assert.ok(performance.now() - started < 1000, `took ${Math.round(performance.now() - started)} ms`);
    }
  });

  it('refuses a text larger than its byte limit with 413, counting UTF-8 bytes, and takes one at the limit', () => {
    const filler = (pad: number) => `SELECT * WHERE { ?s ?p "é${'x'.repeat(pad)}" }`;
    const limits = { ...defaultSparqlLimits, maxBytes: 1000 };
    const base = Buffer.byteLength(filler(0));
    assert.doesNotThrow(() => checkSparqlLimits(filler(1000 - base), limits));
    const error = refusal(() => parseQuery(filler(1001 - base), { limits }));
    assert.equal(filler(1001 - base).length, 1000, 'UTF-16 units: at the limit; UTF-8 bytes: one past it');
    assert.equal(error.code, 'query.too-large');
    assert.equal(error.status, 413);
    assert.match(error.detail, /1001 bytes, more than the limit of 1000 \(MCPLD_MAX_QUERY_BYTES\)/);
    assert.equal(
      refusal(() => parseUpdate(`INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "${'x'.repeat(2000)}" } }`, { limits }))
        .code,
      'update.too-large',
    );
    assert.equal(defaultSparqlLimits.maxBytes, 1024 * 1024);
  });

  it('applies to updates: too deep is update.too-deep', () => {
    const update =
      'INSERT { GRAPH <urn:g> { ?s ?p ?o } } WHERE ' + '{'.repeat(100) + ' GRAPH ?g { ?s ?p ?o } ' + '}'.repeat(100);
    assert.equal(refusal(() => parseUpdate(update)).code, 'update.too-deep');
  });

  it('answers a chain of thousands of operators, which nests the syntax tree as deeply, with 400 too-complex, not a stack overflow', () => {
    const chain = 'SELECT * WHERE { ?s ?p ?o FILTER(?o' + ' + 1'.repeat(20_000) + ') }';
    const error = refusal(() => parseQuery(chain));
    assert.equal(error.code, 'query.too-complex');
    assert.equal(error.status, 400);
    const update =
      'INSERT { GRAPH <urn:g> { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o FILTER(?o' + ' || ?o'.repeat(20_000) + ') } }';
    assert.equal(refusal(() => parseUpdate(update)).code, 'update.too-complex');
  });
});
