import assert from 'node:assert/strict';
import { limitResultText, moreBindingsThan, solutionMarker } from '../../src/store/result-limits.js';

const results = (rows: string[]) => `{"head":{"vars":["s"]},"results":{"bindings":[${rows.join(',')}]}}`;

describe('store: the bounds of an answer, on its text', () => {
  it('counts the rows of SPARQL JSON results, not braces inside strings or nested objects', () => {
    const tricky = '{"s":{"type":"literal","value":"{\\"}{ [{\\\\"}}';
    const text = results([tricky, '{}', '{"s":{"type":"triple","value":{"subject":{"type":"uri","value":"u"}}}}']);
    assert.doesNotThrow(() => JSON.parse(text));
    assert.equal(moreBindingsThan(text, 3), false);
    assert.equal(moreBindingsThan(text, 2), true);
    assert.equal(moreBindingsThan(results([]), 0), false);
    assert.equal(moreBindingsThan('{"head":{},"boolean":true}', 0), false);
  });

  it('drops the marker triples of a CONSTRUCT and counts them as its solutions', () => {
    const text = `<urn:a> <urn:p> "x" .\n_:s1 <${solutionMarker}> "1" .\n_:s2 <${solutionMarker}> "1" .\n<urn:b> <urn:p> "_:s3 <${solutionMarker}> \\"1\\" ." .\n`;
    assert.deepEqual(limitResultText('CONSTRUCT', text, { maxRows: 2 }), {
      text: `<urn:a> <urn:p> "x" .\n<urn:b> <urn:p> "_:s3 <${solutionMarker}> \\"1\\" ." .\n`,
    });
    assert.deepEqual(limitResultText('CONSTRUCT', text, { maxRows: 1 }), {
      exceeded: 'rows',
      form: 'CONSTRUCT',
      limit: 1,
    });
  });

  it('measures bytes as UTF-8 and counts DESCRIBE triples by line', () => {
    assert.deepEqual(limitResultText('DESCRIBE', '<urn:a> <urn:p> "é" .\n', { maxBytes: 22 }), {
      exceeded: 'bytes',
      form: 'DESCRIBE',
      limit: 22,
    });
    assert.ok(
      'text' in limitResultText('DESCRIBE', '<urn:a> <urn:p> "é" .\n', { maxBytes: 23 }),
      '22 characters, 23 bytes',
    );
    assert.deepEqual(limitResultText('DESCRIBE', '<urn:a> <urn:p> "1" .\n<urn:a> <urn:p> "2" .\n', { maxRows: 1 }), {
      exceeded: 'rows',
      form: 'DESCRIBE',
      limit: 1,
    });
  });
});
