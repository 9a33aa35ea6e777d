// Where bytes stop being UTF-8, and the one error every reader of input bytes gives for it: decoding them would
// turn each bad byte into U+FFFD silently. The check is Node's (simdutf, fast); the offset is found only once it fails.
import { isUtf8 } from 'node:buffer';
import { McpLdError } from './problem.js';

/**
 * The bytes a sequence led by `lead` has in all, 0 when `lead` cannot start one (a continuation byte, C0, C1, F5-FF).
 */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The range the second byte after `lead` must be in (no overlong forms, no surrogates, nothing past U+10FFFF). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** The offset of the first byte of `bytes` that is not (part of) a well-formed UTF-8 sequence, or -1 when all are. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    const length = sequenceLength(lead);
    if (length === 0) return i;
    if (length > 1) {
      const [low, high] = secondByteRange(lead);
      const second = bytes[i + 1];
      if (second === undefined || second < low || second > high) return i;
      for (let k = i + 2; k < i + length; k++) {
        const next = bytes[k];
        if (next === undefined || next < 0x80 || next > 0xbf) return i;
      }
    }
    i += length;
  }
  return -1;
}

/** The error for bytes that are not UTF-8 at `offset` (counted from 0, in the whole input). */
export function invalidUtf8(offset: number, byte: number | undefined, line?: number): McpLdError {
  const shown = byte === undefined ? '' : ` (0x${byte.toString(16).toUpperCase().padStart(2, '0')})`;
  return McpLdError.of('input.invalid-utf8', {
    detail: `invalid UTF-8 at byte ${offset}${shown}: the input must be UTF-8, and mcp-ld does not replace what is not`,
    ...(line !== undefined ? { line } : {}),
  });
}

/** `bytes` as text; an McpLdError naming the first bad byte (at `base` plus its offset) when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array, base = 0, line?: number): string {
  const bad = invalidUtf8Offset(bytes);
  if (bad >= 0) throw invalidUtf8(base + bad, bytes[bad], line);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
