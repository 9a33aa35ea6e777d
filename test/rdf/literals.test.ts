// rdf:JSON literals are canonical JSON (RFC 8785): the same value gives the same literal whatever its key order,
// and N-Quads escapes what a STRING_LITERAL_QUOTE cannot hold.
import assert from 'node:assert/strict';
import { canonicalJson } from '../../src/rdf/literals.js';
import { escapeLiteralValue } from '../../src/rdf/nquads.js';

describe('rdf: literals', () => {
  it('writes JSON canonically: keys by UTF-16 code units at every depth, numbers and strings in ECMAScript form', () => {
    assert.equal(
      canonicalJson({ b: 1, a: [{ d: true, c: null }], '10': 'x', '2': 'y' }),
      '{"10":"x","2":"y","a":[{"c":null,"d":true}],"b":1}',
    );
    assert.equal(canonicalJson({ a: { z: 1e21, y: 0.1, x: -0 } }), '{"a":{"x":0,"y":0.1,"z":1e+21}}');
    assert.equal(canonicalJson({ a: 'é\n"', b: { c: [] } }), '{"a":"é\\n\\"","b":{"c":[]}}');
    assert.equal(canonicalJson({ é: 1, z: 2, Z: 3 }), '{"Z":3,"z":2,"é":1}');
    assert.equal(canonicalJson([3, 'a', null]), '[3,"a",null]');
    assert.equal(canonicalJson('x'), '"x"');
  });

  it('escapes backslashes, quotes, newlines and carriage returns in N-Quads literals, and nothing else', () => {
    assert.equal(escapeLiteralValue('plain ☃ text'), 'plain ☃ text');
    assert.equal(escapeLiteralValue('a\\"b"\n\r\\n'), 'a\\\\\\"b\\"\\n\\r\\\\n');
  });
});
