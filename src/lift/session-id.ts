// The session of plain messages (not capture records) when none is named: derived from the input itself, so that the
// same input gives the same IRIs wherever it is lifted (`mcp-ld convert`, `mcp-ld ingest`, POST /convert) and lifting
// it again changes nothing. Whitespace around the input (the newline `echo` adds, and curl -d does not) does not count.
import { createHash } from 'node:crypto';

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

export function derivedSessionId(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  let start = 0;
  let end = bytes.length;
  while (start < end && isSpace(bytes[start]!)) start++;
  while (end > start && isSpace(bytes[end - 1]!)) end--;
  return createHash('sha256').update(bytes.subarray(start, end)).digest('hex').slice(0, 16);
}
