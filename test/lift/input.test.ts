import type { CaptureRecord } from '../../src/lift/records.js';
// parseInput reads text or its UTF-8 bytes (the CLI passes bytes, decoded line by line): both must give the
// same records, errors and line numbers for every shape of input.
import assert from 'node:assert/strict';
import { parseInput, type InputItem } from '../../src/lift/input.js';

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

const inputs: Record<string, string> = {
  'JSONL with non-ASCII, CRLF and blank lines': [ping(1), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'naïve ☃ 𝄞' } }), '', ping(2) + '\r', '   ', ping(3)].join('\n') + '\n',
  'JSONL with a bad line': [ping(1), '{"jsonrpc": "2.0", "id": ', ping(2)].join('\n'),
  'JSONL of capture records': [JSON.stringify({ seq: 1, session: 'é', dir: 'c2s', msg: JSON.parse(ping(1)) })].join('\n'),
  'a batch': `\n\n[${ping(1)},\n ${ping(2)}, 7]`,
  'a pretty-printed message': '\n' + JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'échò', arguments: {} } }, null, 2),
  'a message without a newline': ping(9),
  'empty input': '',
  'whitespace only': ' \n\t\n',
  'a line nested too deep': '['.repeat(200) + ']'.repeat(200) + '\n' + ping(1),
};

function plain(items: Iterable<InputItem>): unknown[] {
  return [...items].map((item) => ({ ...item, error: item.error && { code: item.error.code, detail: item.error.detail, line: item.error.line } }));
}

describe('lift: reading input', () => {
  for (const [name, text] of Object.entries(inputs)) {
    it(`gives the same items for text and for UTF-8 bytes: ${name}`, () => {
      const fromText = plain(parseInput(text));
      assert.ok(fromText.length > 0);
      assert.deepEqual(plain(parseInput(Buffer.from(text, 'utf8'))), fromText);
      // A view into a larger buffer (as stdin chunks give) reads only its own bytes.
      const padded = Buffer.from(`XX${text}YY`, 'utf8');
      assert.deepEqual(plain(parseInput(padded.subarray(2, padded.length - 2))), fromText);
    });
  }

  it('keeps non-ASCII text intact and numbers lines from 1, skipping blank ones', () => {
    const items = [...parseInput(Buffer.from(inputs['JSONL with non-ASCII, CRLF and blank lines']!, 'utf8'))];
    assert.deepEqual(items.map((item) => item.line), [1, 2, 4, 6]);
    assert.equal(((items[1]!.record as CaptureRecord).msg['params'] as { data: string }).data, 'naïve ☃ 𝄞');
  });

  it('refuses a number past the range of a double (1e400 reads as Infinity), naming the line, in a line and in a batch', () => {
    const items = [...parseInput('{"jsonrpc":"2.0","id":1,"result":{"v":1e400}}\n{"jsonrpc":"2.0","id":2,"result":{"v":1e300}}\n')];
    assert.equal(items[0]!.error?.code, 'input.number-out-of-range');
    assert.equal(items[0]!.error?.line, 1);
    assert.ok(items[1]!.record, 'a large finite number is fine');
    assert.equal([...parseInput('[{"jsonrpc":"2.0","id":1,"result":{"v":-1e999}}]')][0]!.error?.code, 'input.number-out-of-range');
  });

  it('gives a line and column for the errors JSON.parse reports without one: NaN, a BOM, a truncated text', () => {
    const cases: [string, number, RegExp][] = [
      ['{"jsonrpc":"2.0","id":1,"result":NaN}', 1, /^Unexpected token 'N' at line 1, column 34$/],
      ['\ufeff{"jsonrpc":"2.0","id":1,"result":{}}', 1, /^a byte order mark \(U\+FEFF\), .* at line 1, column 1$/],
      ['{"jsonrpc":"2.0","id":1,"result":{', 1, /^the JSON text ends before it is complete \(truncated\?\) at line 1, column 35$/],
      // A pretty-printed message with a mistake on its third line is one message, reported where the mistake is.
      ['{\n "jsonrpc": "2.0",\n "id": NaN\n}', 3, /^Unexpected token 'N' at line 3, column 8$/],
      ['{"a":1} x', 1, /^Unexpected non-whitespace character after JSON at line 1, column 9$/],
    ];
    for (const [text, line, detail] of cases) {
      for (const input of [text, Buffer.from(text, 'utf8')]) {
        const items = [...parseInput(input)];
        assert.equal(items.length, 1, text);
        assert.equal(items[0]!.error?.code, 'input.malformed-json', text);
        assert.equal(items[0]!.error?.line, line, text);
        assert.match(items[0]!.error!.detail, detail);
      }
    }
  });

  it('still reads JSONL whose first line is bad as JSONL: the later messages come through', () => {
    const items = [...parseInput('{"jsonrpc":"2.0",\n' + ping(2) + '\n' + ping(3))];
    assert.deepEqual(items.map((item) => [item.line, item.error?.code ?? 'message']), [[1, 'input.malformed-json'], [2, 'message'], [3, 'message']]);
  });
});
