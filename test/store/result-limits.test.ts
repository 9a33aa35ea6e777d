import assert from 'node:assert/strict';
import { jsonStringEnd, limitResultText, moreBindingsThan, solutionMarker } from '../../src/store/result-limits.js';

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

  it('finds where a JSON string closes: after an even run of backslashes, not an odd one', () => {
    for (const value of ['', 'a', 'a"b', 'a\\', 'a\\"b', '\\\\', '"\\"\\\\"', '\\\\\\"x']) {
      const json = `${JSON.stringify(value)},"next"`;
      assert.equal(jsonStringEnd(json, 0, json.length), JSON.stringify(value).length - 1, JSON.stringify(value));
    }
    assert.equal(jsonStringEnd('"open', 0, 5), 5);
    assert.equal(jsonStringEnd('"ab"', 0, 2), 2, 'a quote at or past the end is not looked for');
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

  it('keeps the marker triples when asked (for the chunks to drop), with the same bounds, bytes counted without them', () => {
    const marker = (i: number) => `_:s${i} <${solutionMarker}> "1" .\n`;
    const text = `<urn:a> <urn:p> "é" .\n${marker(1)}<urn:b> <urn:p> "x" .\n${marker(2)}`;
    assert.deepEqual(limitResultText('CONSTRUCT', text, { maxRows: 2 }, { keepMarkers: true }), {
      text,
      markers: true,
    });
    assert.deepEqual(limitResultText('CONSTRUCT', text, { maxRows: 1 }, { keepMarkers: true }), {
      exceeded: 'rows',
      form: 'CONSTRUCT',
      limit: 1,
    });
    // 45 bytes without the markers (44 characters): within 45, past 44, kept or dropped.
    for (const keepMarkers of [true, false]) {
      assert.ok('text' in limitResultText('CONSTRUCT', text, { maxRows: 2, maxBytes: 45 }, { keepMarkers }));
      assert.deepEqual(limitResultText('CONSTRUCT', text, { maxRows: 2, maxBytes: 44 }, { keepMarkers }), {
        exceeded: 'bytes',
        form: 'CONSTRUCT',
        limit: 44,
      });
    }
    const none = '<urn:a> <urn:p> "x" .\n';
    assert.deepEqual(limitResultText('CONSTRUCT', none, { maxRows: 2 }, { keepMarkers: true }), { text: none });
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
