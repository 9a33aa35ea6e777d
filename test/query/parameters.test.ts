import assert from 'node:assert/strict';
import { Parser } from 'sparqljs';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { quadsToNQuads } from '../../src/rdf/nquads.js';
import { xsd } from '../../src/rdf/vocabulary.js';
import {
  NamedQueries,
  parameterTerm,
  parseQueryHeader,
  readQuery,
  runQuery,
  type QueryParameter,
} from '../../src/query/index.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { edgeRecords } from './corpus-store.js';
import { thrownError } from '../helpers/mcp-ld-error.js';

const param = (type: QueryParameter['type'], name = 'p'): QueryParameter => ({
  name,
  type,
  required: false,
  description: '',
});

function fails(action: () => unknown, code: string, pattern?: RegExp): void {
  thrownError(action, { code, ...(pattern ? { detail: pattern } : {}) });
}

describe('query: parameters', function () {
  this.timeout(60_000);
  const named = new NamedQueries();

  it('turns each value into one RDF term of its declared type', () => {
    const term = (type: QueryParameter['type'], value: string | number | boolean) => {
      const t = parameterTerm(param(type), value);
      return t.termType === 'Literal' ? [t.value, t.datatype.value] : [t.termType, t.value];
    };
    assert.deepEqual(term('xsd:string', 'echo'), ['echo', xsd.string]);
    assert.deepEqual(term('xsd:integer', ' +0042 '), ['42', xsd.integer]);
    assert.deepEqual(term('xsd:integer', -32601), ['-32601', xsd.integer]);
    assert.deepEqual(term('xsd:decimal', '2.50'), ['2.50', xsd.decimal]);
    assert.deepEqual(term('xsd:double', '1e3'), ['1e3', xsd.double]);
    assert.deepEqual(term('xsd:boolean', '1'), ['true', xsd.boolean]);
    assert.deepEqual(term('xsd:boolean', false), ['false', xsd.boolean]);
    assert.deepEqual(term('xsd:dateTime', '2026-11-29T22:56:04.755Z'), ['2026-11-29T22:56:04.755Z', xsd.dateTime]);
    assert.deepEqual(term('xsd:anyURI', 'demo://resource/1'), ['demo://resource/1', xsd.anyURI]);
    assert.deepEqual(term('iri', 'urn:mcp-ld:session/x'), ['NamedNode', 'urn:mcp-ld:session/x']);
  });

  it('reads a window bound as a date-time (UTC when it names no zone) or a date: the start of that day, or the end of it', () => {
    const bound = (type: 'start-time' | 'end-time', value: string) => {
      const t = parameterTerm(param(type), value);
      assert.equal(t.termType === 'Literal' && t.datatype.value, xsd.dateTime);
      return t.value;
    };
    assert.equal(bound('start-time', '2026-11-29'), '2026-11-29T00:00:00Z');
    // A window ends before its end: the end of a day is the start of the next.
    assert.equal(bound('end-time', '2026-11-29'), '2026-11-30T00:00:00Z');
    assert.equal(bound('end-time', '2026-11-30'), '2026-12-01T00:00:00Z');
    assert.equal(bound('end-time', '2026-12-31'), '2027-01-01T00:00:00Z');
    assert.equal(bound('end-time', '2026-02-28'), '2026-03-01T00:00:00Z');
    assert.equal(bound('end-time', '2028-02-28'), '2028-02-29T00:00:00Z');
    assert.equal(bound('end-time', '2000-02-29'), '2000-03-01T00:00:00Z');
    assert.equal(bound('end-time', '0099-12-31'), '0100-01-01T00:00:00Z');
    assert.equal(bound('end-time', '9999-12-31'), '10000-01-01T00:00:00Z');
    for (const type of ['start-time', 'end-time'] as const) {
      assert.equal(bound(type, ' 2026-11-29T22:56:10.5Z '), '2026-11-29T22:56:10.5Z');
      assert.equal(bound(type, '2026-11-29T22:56:10'), '2026-11-29T22:56:10Z');
      assert.equal(bound(type, '2026-11-29T23:56:10+01:00'), '2026-11-29T23:56:10+01:00');
      for (const bad of [
        '2026-02-29',
        '2026-04-31',
        '2026-13-01',
        '2026-11-29T25:00:00Z',
        '29/11/2026',
        '2026-11',
        'yesterday',
        '2026-02-30T00:00:00Z',
      ]) {
        fails(
          () => parameterTerm(param(type, 'since'), bad),
          'query.parameter-invalid',
          /^parameter since must be a date and time like 2026-11-29T12:00:00Z .*, or a date like 2026-11-29/,
        );
      }
    }
  });

  it('refuses a value that does not fit its type, naming the parameter and the type', () => {
    const bad: [QueryParameter['type'], string][] = [
      ['xsd:integer', 'many'],
      ['xsd:integer', '1.5'],
      ['xsd:decimal', '1,5'],
      ['xsd:double', 'fast'],
      ['xsd:boolean', 'yes'],
      ['xsd:dateTime', '2026-13-01T00:00:00Z'],
      ['xsd:dateTime', '2026-02-30T00:00:00Z'],
      ['xsd:dateTime', 'yesterday'],
      ['iri', 'not an iri'],
      ['iri', 'urn:x> } ; DROP ALL ; { <urn:y'],
      ['xsd:anyURI', 'http://example.org/a b'],
      ['xsd:string', '\uD800'],
    ];
    for (const [type, value] of bad)
      fails(() => parameterTerm(param(type, 'which'), value), 'query.parameter-invalid', /^parameter which must be/);
  });

  it('binds values in the parsed query; unknown, missing and mistyped parameters are clear errors', () => {
    fails(
      () => named.prepare('tool-calls', { toool: 'echo' }),
      'query.parameter-unknown',
      /no parameter "toool"; its parameters: tool/,
    );
    fails(
      () => named.prepare('session-timeline', {}),
      'query.parameter-missing',
      /session-timeline needs parameter session/,
    );
    fails(
      () => named.prepare('slowest-requests', { limit: 'ten' }),
      'query.parameter-invalid',
      /parameter limit must be an integer/,
    );
    fails(() => named.prepare('slowest-requests', { limit: -1 }), 'query.parameter-invalid', /0 or more/);
    fails(() => named.prepare('no-such-query'), 'query.unknown');
    // Defaults are bound like given values: the LIMIT of the sub-query that picks the rows.
    assert.match(named.prepare('slowest-requests').text, /LIMIT 10\b/);
    const three = named.prepare('slowest-requests', { limit: '3' }).text;
    assert.match(three, /LIMIT 3\b/);
    assert.doesNotMatch(three, /LIMIT 10\b/);
    // The value is a term in a VALUES block, not text in the query.
    const tree = new Parser().parse(named.prepare('tool-calls', { tool: 'echo' }).text) as {
      where: { type: string; values?: Record<string, { value: string }>[] }[];
    };
    assert.equal(tree.where[0]!.type, 'values');
    assert.equal(tree.where[0]!.values![0]!['?tool']!.value, 'echo');
  });

  it('cannot be injected: a value with quotes, braces and an update stays one literal', async () => {
    const store = await EmbeddedStore.open({});
    try {
      const lifter = new Lifter(loadSchema());
      await store.ingest(quadsToNQuads(edgeRecords().flatMap((r) => lifter.lift(r).quads)));
      const before = await store.size();
      const hostile = [
        '"} ; DROP ALL ; {',
        "'} } ; DROP ALL ; { SELECT * WHERE { ?s ?p ?o",
        '\\" . } INSERT DATA { <urn:a> <urn:b> <urn:c> } #',
        'echo"\n} UNION { ?call ?p ?o',
      ];
      for (const value of hostile) {
        const prepared = named.prepare('tool-calls', { tool: value });
        const tree = new Parser().parse(prepared.text) as {
          type: string;
          where: { values?: Record<string, { value: string }>[] }[];
        };
        assert.equal(tree.type, 'query');
        assert.equal(tree.where[0]!.values![0]!['?tool']!.value, value, 'the literal holds the value exactly');
        const answer = await runQuery(store, prepared);
        assert.equal(answer.form === 'SELECT' && answer.rows.length, 0, 'no tool has that name');
      }
      // The argument that holds the same text is found as data, by its exact value.
      const echo = await named.run(store, 'tool-calls', { tool: 'echo' });
      assert.equal(echo.form === 'SELECT' && echo.rows.length, 1);
      assert.equal(await store.size(), before, 'nothing was dropped or added');
    } finally {
      await store.close();
    }
  });

  it('reads query headers: title, description (over several lines), parameters with flags and defaults', () => {
    const header = parseQueryHeader(
      [
        '# @title Calls',
        '# @description First line,',
        '#   second line.',
        '# @param tool xsd:string (optional) — only this tool',
        '# @param limit xsd:integer (default 20) - at most this many',
        '# @param since xsd:dateTime — required, since no flag',
        '# @param label xsd:string (default "a, b") -- a quoted default',
        'SELECT * WHERE { ?s ?p ?o }',
        '# @param ignored xsd:string (optional) — after the query starts',
      ].join('\n'),
    );
    assert.equal(header.title, 'Calls');
    assert.equal(header.description, 'First line, second line.');
    assert.deepEqual(
      header.parameters.map((p) => [p.name, p.type, p.required, p.default, p.description]),
      [
        ['tool', 'xsd:string', false, undefined, 'only this tool'],
        ['limit', 'xsd:integer', false, '20', 'at most this many'],
        ['since', 'xsd:dateTime', true, undefined, 'required, since no flag'],
        ['label', 'xsd:string', false, 'a, b', 'a quoted default'],
      ],
    );
    fails(() => parseQueryHeader('# @param x xsd:whatever (optional)'), 'query.header-invalid', /known types/);
    fails(
      () => parseQueryHeader('# @param limit xsd:string (optional)'),
      'query.header-invalid',
      /must be xsd:integer/,
    );
    fails(() => parseQueryHeader('# @author me'), 'query.header-invalid', /unknown tag @author/);
    fails(() => parseQueryHeader('# @param x xsd:string (sometimes)'), 'query.header-invalid', /unknown flag/);
  });

  it('refuses a named query whose parameter could not be bound soundly (inside OPTIONAL, a BIND target, unused)', () => {
    const header = '# @title T\n# @description D\n# @param tool xsd:string (optional) — t\n';
    fails(
      () =>
        readQuery(
          'bad.rq',
          `${header}SELECT * WHERE { ?c a mcp:CallToolRequest OPTIONAL { ?c jrpc:hasParameters/mcp:hasName ?tool } }`,
          true,
        ),
      'query.named-invalid',
      /inside OPTIONAL/,
    );
    fails(
      () => readQuery('bad.rq', `${header}SELECT * WHERE { ?c a mcp:CallToolRequest BIND("x" AS ?tool) }`, true),
      'query.named-invalid',
      /BIND target/,
    );
    fails(
      () => readQuery('bad.rq', `${header}SELECT * WHERE { ?c a mcp:CallToolRequest }`, true),
      'query.named-invalid',
      /does not occur/,
    );
    // A FILTER may use it anywhere, and a UNION branch may bind it.
    readQuery(
      'good.rq',
      `${header}SELECT * WHERE { ?c a mcp:CallToolRequest OPTIONAL { ?c jrpc:hasParameters/mcp:hasName ?n FILTER(?n = ?tool) } }`,
      true,
    );
    readQuery(
      'good.rq',
      `${header}SELECT * WHERE { { ?c mcp:hasName ?tool } UNION { ?c a mcp:CallToolRequest BIND("" AS ?tool) } }`,
      true,
    );
    // Every shipped named query passes.
    for (const q of named.list()) assert.ok(q.form);
  });
});
