// jsonErrorOffset finds where a text stops being JSON, for the errors V8 reports without a position. It must agree
// with JSON.parse on what is JSON at all, and point at the first character that cannot continue.
import assert from 'node:assert/strict';
import { jsonErrorOffset } from '../../src/core/json-error.js';

const valid = [
  '{}',
  '[]',
  ' {"a" : [1, -2.5e+3, true, false, null, "x\\"\\u00e9\\n"], "b": {"c": {}}} ',
  '"just a string"',
  '0',
  '[' + '['.repeat(5000) + ']'.repeat(5000) + ']',
];

describe('core/json-error', () => {
  it('finds no error in valid JSON (any depth)', () => {
    for (const text of valid) assert.equal(jsonErrorOffset(text), -1, text.slice(0, 40));
  });

  it('points at the first character that cannot continue', () => {
    const cases: [string, number][] = [
      ['{"a":NaN}', 5],
      ['\ufeff{}', 0],
      ['{"a":1,}', 7],
      ['[1,2', 4],
      ['{"a" 1}', 5],
      ['{"a":1} x', 8],
      ['{"a":"tab\there"}', 9],
      ['{"a":01}', 6],
      ["{'a':1}", 1],
      ['', 0],
    ];
    for (const [text, offset] of cases) assert.equal(jsonErrorOffset(text), offset, JSON.stringify(text));
  });

  it('agrees with JSON.parse on every prefix of a message: a prefix that does not parse ends early', () => {
    const message = JSON.stringify(
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'é "q" \\' }], isError: false, n: -12.5e3 } },
      null,
      1,
    );
    for (let length = 0; length < message.length; length++) {
      const prefix = message.slice(0, length);
      let parses = true;
      try {
        JSON.parse(prefix);
      } catch {
        parses = false;
      }
      assert.equal(jsonErrorOffset(prefix), parses ? -1 : length, JSON.stringify(prefix));
    }
  });
});
