import assert from 'node:assert/strict';
import type { Term } from '@rdfjs/types';
import { DataFactory } from 'n3';
import oxigraph from 'oxigraph';
import { McpLdError } from '../../src/core/problem.js';
import { writeResult, formatsFor } from '../../src/query/index.js';
import type { QueryResult } from '../../src/store/quad-store.js';

const { namedNode, literal, blankNode } = DataFactory;
const xsd = (name: string) => namedNode(`http://www.w3.org/2001/XMLSchema#${name}`);

function solutions(variables: string[], rows: Record<string, Term>[]): QueryResult {
  return { form: 'SELECT', variables, rows: rows.map((row) => new Map(Object.entries(row))) };
}

describe('query: plain JSON rows and JSON Lines', () => {
  it('writes numbers as JSON numbers (integers and decimals digit for digit), booleans as true/false, the rest as strings', async () => {
    const values: [Term, string][] = [
      [literal('42', xsd('integer')), '42'],
      [literal('-0012', xsd('integer')), '-12'],
      [literal('+7', xsd('int')), '7'],
      [literal('123456789012345678901234567890', xsd('integer')), '123456789012345678901234567890'],
      [literal('01.50', xsd('decimal')), '1.5'],
      [literal('-0.0', xsd('decimal')), '0'],
      [literal('.5', xsd('decimal')), '0.5'],
      [literal('2.', xsd('decimal')), '2'],
      [literal('1.5E2', xsd('double')), '150'],
      [literal('1.0E-7', xsd('double')), '1e-7'],
      [literal('INF', xsd('double')), '"INF"'],
      [literal('-INF', xsd('float')), '"-INF"'],
      [literal('NaN', xsd('double')), '"NaN"'],
      [literal('12abc', xsd('integer')), '"12abc"'],
      [literal('true', xsd('boolean')), 'true'],
      [literal('0', xsd('boolean')), 'false'],
      [literal('2026-11-29T22:56:04.75Z', xsd('dateTime')), '"2026-11-29T22:56:04.75Z"'],
      [literal('bonjour', 'fr'), '"bonjour"'],
      [literal('{"a":[1,2]}', namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON')), '"{\\"a\\":[1,2]}"'],
      [literal('line\nbreak "quoted"'), '"line\\nbreak \\"quoted\\""'],
      [namedNode('http://modelcontextprotocol.io/ontology#CallToolRequest'), '"mcp:CallToolRequest"'],
      [namedNode('https://w3id.org/mcp-ld/ns#clientToServer'), '"mld:clientToServer"'],
      [namedNode('urn:mcp-ld:session/57cd8539/message/3'), '"urn:mcp-ld:session/57cd8539/message/3"'],
      // A local part a prefixed name cannot carry as it is stays a full IRI.
      [
        namedNode('https://w3id.org/mcp-ld/ext#io.modelcontextprotocol%2Frelated-task'),
        '"https://w3id.org/mcp-ld/ext#io.modelcontextprotocol%2Frelated-task"',
      ],
      [blankNode('b1'), '"_:b1"'],
    ];
    for (const [term, json] of values) {
      const text = await writeResult(solutions(['v'], [{ v: term }]), 'rows');
      assert.equal(text, `[\n{"v":${json}}\n]\n`, `${term.termType} ${term.value}`);
    }
  });

  it('keys each row by variable in the query’s order, leaves unbound variables out, and writes one row a line', async () => {
    const result = solutions(
      ['b', 'a', 'unbound'],
      [{ a: literal('1', xsd('integer')), b: literal('x') }, { b: literal('y') }, {}],
    );
    assert.equal(await writeResult(result, 'rows'), '[\n{"b":"x","a":1},\n{"b":"y"},\n{}\n]\n');
    assert.equal(await writeResult(result, 'jsonl'), '{"b":"x","a":1}\n{"b":"y"}\n{}\n');
    assert.deepEqual(JSON.parse(await writeResult(result, 'rows')), [{ b: 'x', a: 1 }, { b: 'y' }, {}]);
  });

  it('writes no rows as an empty array, and as no lines at all', async () => {
    const none = solutions(['a'], []);
    assert.equal(await writeResult(none, 'rows'), '[]\n');
    assert.equal(await writeResult(none, 'jsonl'), '');
  });

  it('gives the rows of a real query over Oxigraph the values the engine computed', async () => {
    const store = new oxigraph.Store();
    const query = `PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
      SELECT ?n ?avg ?ok ?when ?type WHERE {
        VALUES ?n { 3 }
        BIND((1 + 2) / 2 AS ?avg) BIND(3 > 2 AS ?ok) BIND("2026-11-29T00:00:00.000Z"^^xsd:dateTime AS ?when)
        BIND(<http://modelcontextprotocol.io/ontology#Tool> AS ?type)
      }`;
    const rows = store.query(query) as Map<string, Term>[];
    const text = await writeResult({ form: 'SELECT', variables: ['n', 'avg', 'ok', 'when', 'type'], rows }, 'jsonl');
    assert.equal(text, '{"n":3,"avg":1.5,"ok":true,"when":"2026-11-29T00:00:00Z","type":"mcp:Tool"}\n');
  });

  it('has no rows for an ASK answer: the formats of ASK leave them out, and asking for them is a 406', async () => {
    assert.ok(!formatsFor('ASK').includes('rows') && !formatsFor('ASK').includes('jsonl'));
    assert.ok(formatsFor('SELECT').includes('rows') && formatsFor('SELECT').includes('jsonl'));
    await assert.rejects(
      writeResult({ form: 'ASK', boolean: true }, 'rows'),
      (error: McpLdError) => error.status === 406 && /ASK query gives a boolean/.test(error.detail ?? ''),
    );
  });
});
