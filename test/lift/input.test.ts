import type { CaptureRecord } from '../../src/lift/records.js';
// parseInput reads text or its UTF-8 bytes (the CLI passes bytes, decoded line by line): both must give the
// same records, errors and line numbers for every shape of input.
import assert from 'node:assert/strict';
import { parseInput, type InputItem } from '../../src/lift/input.js';

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

const inputs: Record<string, string> = {
  'JSONL with non-ASCII, CRLF and blank lines':
    [
      ping(1),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'naïve ☃ 𝄞' } }),
      '',
      ping(2) + '\r',
      '   ',
      ping(3),
    ].join('\n') + '\n',
  'JSONL with a bad line': [ping(1), '{"jsonrpc": "2.0", "id": ', ping(2)].join('\n'),
  'JSONL of capture records': [JSON.stringify({ seq: 1, session: 'é', dir: 'c2s', msg: JSON.parse(ping(1)) })].join(
    '\n',
  ),
  'a batch': `\n\n[${ping(1)},\n ${ping(2)}, 7]`,
  'a pretty-printed message':
    '\n' +
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'échò', arguments: {} } }, null, 2),
  'a message without a newline': ping(9),
  'empty input': '',
  'whitespace only': ' \n\t\n',
  'a line nested too deep': '['.repeat(200) + ']'.repeat(200) + '\n' + ping(1),
};

function plain(items: Iterable<InputItem>): unknown[] {
  return [...items].map((item) => ({
    ...item,
    error: item.error && { code: item.error.code, detail: item.error.detail, line: item.error.line },
  }));
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
    assert.deepEqual(
      items.map((item) => item.line),
      [1, 2, 4, 6],
    );
    assert.equal(((items[1]!.record as CaptureRecord).msg['params'] as { data: string }).data, 'naïve ☃ 𝄞');
  });

  it('refuses a number past the range of a double (1e400 reads as Infinity), naming the line, in a line and in a batch', () => {
    const items = [
      ...parseInput('{"jsonrpc":"2.0","id":1,"result":{"v":1e400}}\n{"jsonrpc":"2.0","id":2,"result":{"v":1e300}}\n'),
    ];
    assert.equal(items[0]!.error?.code, 'input.number-out-of-range');
    assert.equal(items[0]!.error?.line, 1);
    assert.ok(items[1]!.record, 'a large finite number is fine');
    assert.equal(
      [...parseInput('[{"jsonrpc":"2.0","id":1,"result":{"v":-1e999}}]')][0]!.error?.code,
      'input.number-out-of-range',
    );
  });

  it('gives a line and column for the errors JSON.parse reports without one: NaN, a BOM, a truncated text', () => {
    const cases: [string, number, RegExp][] = [
      ['{"jsonrpc":"2.0","id":1,"result":NaN}', 1, /^Unexpected token 'N' at line 1, column 34$/],
      ['\ufeff{"jsonrpc":"2.0","id":1,"result":{}}', 1, /^a byte order mark \(U\+FEFF\), .* at line 1, column 1$/],
      [
        '{"jsonrpc":"2.0","id":1,"result":{',
        1,
        /^the JSON text ends before it is complete \(truncated\?\) at line 1, column 35$/,
      ],
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
    assert.deepEqual(
      items.map((item) => [item.line, item.error?.code ?? 'message']),
      [
        [1, 'input.malformed-json'],
        [2, 'message'],
        [3, 'message'],
      ],
    );
  });

  it('refuses a line whose bytes are not UTF-8, naming the byte, and reads the lines around it', () => {
    const bad: [string, number[]][] = [
      ['a lone continuation byte', [0x80]],
      ['an overlong slash', [0xc0, 0xaf]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a sequence cut short', [0xe2, 0x82]],
      ['a byte UTF-8 never uses', [0xff]],
      ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ];
    for (const [name, sequence] of bad) {
      const before = Buffer.from(ping(1) + '\n{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"é');
      const input = Buffer.concat([before, Buffer.from(sequence), Buffer.from('"}}\n' + ping(3) + '\n')]);
      const items = [...parseInput(input)];
      assert.deepEqual(
        items.map((item) => [item.line, item.error?.code ?? 'message']),
        [
          [1, 'message'],
          [2, 'input.invalid-utf8'],
          [3, 'message'],
        ],
        name,
      );
      assert.equal(
        items[1]!.error!.detail,
        `invalid UTF-8 at byte ${before.length} (0x${sequence[0]!.toString(16).toUpperCase()}): the input must be UTF-8, and mcp-ld does not replace what is not`,
        name,
      );
    }
  });

  it('refuses a batch or a pretty-printed message with bytes that are not UTF-8 as a whole, at the line of the byte', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"jsonrpc":"2.0","id":1,"result":', '}'],
    ]) {
      const input = Buffer.concat([
        Buffer.from(`${open}\n{"jsonrpc":"2.0","id":1,\n"result":{"t":"`),
        Buffer.from([0xfe]),
        Buffer.from(`"}}\n${close}`),
      ]);
      const items = [...parseInput(input)];
      assert.equal(items.length, 1, open);
      assert.equal(items[0]!.error?.code, 'input.invalid-utf8', open);
      assert.equal(items[0]!.line, 3, open);
      assert.match(
        items[0]!.error!.detail,
        new RegExp(`^invalid UTF-8 at byte ${input.indexOf(0xfe)} \\(0xFE\\)`),
        open,
      );
    }
  });

  it('refuses a key given twice in one object (JSON.parse keeps the last), naming it and where it is', () => {
    const cases: [string, string, RegExp][] = [
      [
        '{"jsonrpc":"2.0","id":1,"method":"ping","id":2}',
        'id',
        /^the key "id" is given twice in one object, the second time at line 1, column 41: /,
      ],
      [
        '{"jsonrpc":"2.0","id":1,"result":{"a":{"x":1},"b":{"x":1,"y":2,"x":3}}}',
        'x',
        /the second time at line 1, column 64/,
      ],
      // The same key written two ways is the same key.
      ['{"jsonrpc":"2.0","id":1,"result":{"a":1,"\\u0061":2}}', 'a', /the key "a" is given twice/],
      ['{"jsonrpc":"2.0","id":1,"result":{"\\u0000":1,"\\u0000":2}}', '\u0000', /the key "\\u0000" is given twice/],
      ['{"jsonrpc":"2.0","id":1,"result":{"\\ud800":1,"\\ud800":2}}', '\ud800', /the key "\\ud800" is given twice/],
      ['{"seq":1,"seq":2,"msg":{"jsonrpc":"2.0","id":1,"result":{}}}', 'seq', /the key "seq" is given twice/],
    ];
    for (const [text, key, detail] of cases) {
      for (const input of [
        text,
        Buffer.from(text, 'utf8'),
        `[${text}]`,
        `{\n"jsonrpc":"2.0",\n"id":1,\n"result":${text}\n}`,
      ]) {
        const items = [...parseInput(input)];
        assert.equal(items.length, 1, text);
        assert.equal(items[0]!.error?.code, 'input.duplicate-key', `${String(input)}: ${items[0]!.error?.detail}`);
        assert.ok(items[0]!.error!.detail.includes(JSON.stringify(key)), items[0]!.error!.detail);
        if (typeof input !== 'string' || input === text) assert.match(items[0]!.error!.detail, detail);
      }
    }
    // Pretty-printed, the line and column are those of the second key.
    assert.match(
      [...parseInput('{\n  "jsonrpc": "2.0",\n  "method": "ping",\n  "id": 1,\n  "id" : 1\n}')][0]!.error!.detail,
      /the second time at line 5, column 3:/,
    );
  });

  it('accepts the same key in different objects, a key that is also a value, and quotes and colons inside strings', () => {
    const texts = [
      '{"jsonrpc":"2.0","id":1,"result":{"a":{"id":1},"b":[{"id":1},{"id":1}],"id":"id"}}',
      '{"jsonrpc":"2.0","id":1,"result":{"text":"{\\"id\\":1,\\"id\\":2}","k\\\\":"\\\\","q":"\\":\\"" }}',
      '{ "jsonrpc" : "2.0" , "id" : 1 , "result" : { "x" : ":" , "y" : "\\":" } }',
    ];
    for (const text of texts) {
      const items = [...parseInput(text)];
      assert.ok(items[0]!.record, `${text}: ${items[0]!.error?.detail}`);
      assert.deepEqual((items[0]!.record as CaptureRecord).msg, JSON.parse(text));
    }
  });

  it('reads a raw line kept as base64 bytes, and refuses an encoding that is not base64 or not on a raw line', () => {
    const items = [
      ...parseInput(
        [
          '{"seq":1,"dir":"s2c","raw":"/8Mo","encoding":"base64"}',
          '{"raw":"not base64!","encoding":"base64"}',
          '{"raw":"x","encoding":"hex"}',
          `{"msg":${ping(1)},"encoding":"base64"}`,
        ].join('\n'),
      ),
    ];
    assert.deepEqual(items[0]!.record, { seq: 1, dir: 's2c', raw: '/8Mo', encoding: 'base64' });
    assert.deepEqual(
      items.slice(1).map((item) => item.error?.detail),
      [
        '"raw" of a raw line with "encoding": "base64" must be base64',
        '"encoding" must be "base64", on a raw line (a record without "msg")',
        '"encoding" must be "base64", on a raw line (a record without "msg")',
      ],
    );
  });

  it('reads the HTTP facts of a proxied message (`http`: Mcp-Method, Mcp-Name) and refuses any other shape, naming it', () => {
    const lines = [
      `{"seq":1,"dir":"c2s","session":"s","http":{"mcpMethod":"tools/call","mcpName":"=?base64?ZWNobw==?="},"msg":${ping(1)}}`,
      '{"seq":2,"dir":"c2s","session":"s","http":{"mcpMethod":"ping"},"raw":"not json"}',
      `{"http":[],"msg":${ping(3)}}`,
      `{"http":{"mcpMethod":"ping","method":"POST"},"msg":${ping(4)}}`,
      `{"http":{"mcpName":7},"msg":${ping(5)}}`,
    ];
    const items = [...parseInput(lines.join('\n'))];
    assert.deepEqual((items[0]!.record as CaptureRecord).http, {
      mcpMethod: 'tools/call',
      mcpName: '=?base64?ZWNobw==?=',
    });
    assert.deepEqual(items[1]!.record, {
      seq: 2,
      dir: 'c2s',
      session: 's',
      http: { mcpMethod: 'ping' },
      raw: 'not json',
    });
    assert.deepEqual(
      items.slice(2).map((item) => item.error?.detail),
      [
        '"http" must be an object',
        '"http" has an unknown field "method" (it may have "mcpMethod" and "mcpName")',
        '"http" "mcpName" must be a string',
      ],
    );
  });
});
