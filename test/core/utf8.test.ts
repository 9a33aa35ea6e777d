// The UTF-8 check every reader of input bytes runs: it must agree with a fatal TextDecoder on what is UTF-8, and
// name the first byte that is not.
import assert from 'node:assert/strict';
import { decodeUtf8, invalidUtf8Offset } from '../../src/core/utf8.js';
import { McpLdError } from '../../src/core/problem.js';

const fatal = new TextDecoder('utf-8', { fatal: true });

function decodes(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Valid exactly when the decoder says so; the offset is of the first bad byte: everything before it decodes, and no
 *  character starts there (no prefix ending one to four bytes later decodes). */
function assertAgrees(bytes: Uint8Array): void {
  const offset = invalidUtf8Offset(bytes);
  const label = Buffer.from(bytes).toString('hex');
  assert.equal(offset < 0, decodes(bytes), label);
  if (offset < 0) return;
  assert.ok(decodes(bytes.subarray(0, offset)), `${label}: the bytes before ${offset} are UTF-8`);
  for (let end = offset + 1; end <= Math.min(bytes.length, offset + 4); end++)
    assert.ok(!decodes(bytes.subarray(0, end)), `${label}: no character starts at ${offset}`);
}

describe('core: UTF-8 check', () => {
  it('agrees with a fatal TextDecoder on every one- and two-byte input', () => {
    for (let a = 0; a < 256; a++) {
      assertAgrees(Uint8Array.of(a));
      if (a >= 0x80) for (let b = 0; b < 256; b++) assertAgrees(Uint8Array.of(0x41, a, b, 0x41));
    }
  });

  it('agrees on the second byte of every three- and four-byte lead (overlong forms, surrogates, past U+10FFFF)', () => {
    for (let lead = 0xe0; lead <= 0xf7; lead++) {
      for (let second = 0; second < 256; second++) {
        for (const rest of [[0x80, 0x80], [0xbf, 0xbf], [0x80], [0x41, 0x80], [0xc0, 0x80], []])
          assertAgrees(Uint8Array.of(lead, second, ...rest));
      }
    }
  });

  it('decodes UTF-8 as Buffer does, and names the byte (from the given base) of what is not', () => {
    assert.equal(decodeUtf8(Buffer.from('naïve ☃ 𝄞')), 'naïve ☃ 𝄞');
    assert.throws(
      () => decodeUtf8(Uint8Array.of(0x61, 0x62, 0xe2, 0x28, 0xa1), 100, 7),
      (error: unknown) =>
        error instanceof McpLdError &&
        error.code === 'input.invalid-utf8' &&
        error.line === 7 &&
        error.detail.startsWith('invalid UTF-8 at byte 102 (0xE2)'),
    );
  });
});
