// One IRI predicate for every place an IRI comes in, and the route schema's pattern built from it.
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { absoluteIriPattern, hasIriScheme, iriRef, isAbsoluteIri } from '../../src/core/iri.js';
import { convertQuerySchema } from '../../src/api/routes/convert.js';

const accepted = ['urn:mcp-ld:', 'https://example.org/a?b=c#d', 'urn:x:é😀', 'tag:a\u00a0b', 'mailto:a@b'];
const refused = [
  '',
  'relative/path',
  '1urn:x',
  'urn:a b',
  'urn:<a>',
  'urn:a"b',
  'urn:a{b}',
  'urn:a|b',
  'urn:a^b',
  'urn:a`b',
  'urn:a\\b',
  'urn:a\nb',
  'urn:a\u0000',
  'urn:a\u007f',
  'urn:a\u0085',
  'urn:a\u009f',
];

describe('core: IRIs', () => {
  it('takes absolute IRIs and refuses relative references and what IRIREF or RFC 3987 leaves out', () => {
    for (const text of accepted) assert.ok(isAbsoluteIri(text), JSON.stringify(text));
    for (const text of refused) assert.ok(!isAbsoluteIri(text), JSON.stringify(text));
  });

  it('gives POST /convert ?base= the same answer through its JSON Schema pattern', () => {
    assert.equal(convertQuerySchema.properties.base.pattern, absoluteIriPattern);
    const validate = new Ajv().compile({ type: 'string', pattern: absoluteIriPattern });
    for (const text of [...accepted, ...refused])
      assert.equal(validate(text), isAbsoluteIri(text), JSON.stringify(text));
  });

  it('tells an absolute IRI from a relative reference by its scheme alone', () => {
    assert.ok(hasIriScheme('urn:a b'));
    assert.ok(!hasIriScheme('a/b:c'));
  });

  it('writes an IRI between angle brackets, escaping what IRIREF cannot hold', () => {
    assert.equal(iriRef('urn:a'), '<urn:a>');
    assert.equal(iriRef('urn:a b>\\'), '<urn:a\\u0020b\\u003E\\u005C>');
    assert.equal(iriRef('urn:é'), '<urn:é>');
  });
});
