// Frames in files (the format is frames.ts): reading them in order up to the first bad one, finding the next whole
// frame
// after damage, and writing bytes whole. Shared by the journal (file-journal.ts) and its repair (journal-repair.ts);
// knows nothing of what the frames mean.
import type { FileHandle } from 'node:fs/promises';
import { decodeFrameHeader, frameHeaderBytes, frameMagic, payloadMatches, type FrameType } from './frames.js';

interface ReadFrame {
  type: FrameType;
  seq: number;
  payload: Buffer;
  offset: number;
}

/**
 * Where reading stopped, why, and whether it looks like a torn tail (a write cut off by a crash) rather than damage.
 */
export type FrameProblem = { offset: number; reason: string; torn: boolean };

/** Bytes from `offset` to the frame's end: its header and payload. */
export function frameEnd(frame: ReadFrame): number {
  return frame.offset + frameHeaderBytes + frame.payload.length;
}

/**
 * Reads the frames of a file from `start` to `end`; stops at the first bad frame and says whether it is a torn tail.
 */
export async function* readFrames(
  handle: FileHandle,
  start: number,
  end: number,
): AsyncGenerator<ReadFrame, FrameProblem | undefined> {
  const header = Buffer.alloc(frameHeaderBytes);
  let offset = start;
  while (offset < end) {
    if (end - offset < frameHeaderBytes) return { offset, reason: 'incomplete frame header', torn: true };
    await handle.read(header, 0, frameHeaderBytes, offset);
    const decoded = decodeFrameHeader(header);
    if (!decoded.ok) {
      const rest = Buffer.alloc(Math.min(end - offset, 1024 * 1024));
      await handle.read(rest, 0, rest.length, offset);
      return { offset, reason: decoded.reason, torn: end - offset <= rest.length && rest.every((b) => b === 0) };
    }
    const payloadEnd = offset + frameHeaderBytes + decoded.length;
    if (payloadEnd > end) return { offset, reason: 'incomplete frame', torn: true };
    const payload = Buffer.allocUnsafe(decoded.length);
    if (decoded.length > 0) await handle.read(payload, 0, decoded.length, offset + frameHeaderBytes);
    if (!payloadMatches(header, payload, decoded.crc))
      return { offset, reason: 'checksum mismatch', torn: payloadEnd === end };
    yield { type: decoded.type, seq: decoded.seq, payload, offset };
    offset = payloadEnd;
  }
  return undefined;
}

/**
 * The first whole frame (its magic number, a plausible header and a payload its checksum matches) that starts at or
 * after `from`: read in chunks, looked at only where a frame could not be read, so opening stays linear.
 */
export async function nextWholeFrame(
  handle: FileHandle,
  from: number,
  end: number,
): Promise<{ offset: number; seq: number } | undefined> {
  const magicBytes = Buffer.alloc(4);
  magicBytes.writeUInt32BE(frameMagic, 0);
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  const header = Buffer.alloc(frameHeaderBytes);
  for (let start = from; start < end; start += chunk.length - 3) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - start), start);
    for (
      let at = chunk.subarray(0, bytesRead).indexOf(magicBytes);
      at >= 0;
      at = chunk.subarray(0, bytesRead).indexOf(magicBytes, at + 1)
    ) {
      const offset = start + at;
      if (end - offset < frameHeaderBytes) continue;
      await handle.read(header, 0, frameHeaderBytes, offset);
      const decoded = decodeFrameHeader(header);
      if (!decoded.ok || offset + frameHeaderBytes + decoded.length > end) continue;
      const payload = Buffer.allocUnsafe(decoded.length);
      if (decoded.length > 0) await handle.read(payload, 0, decoded.length, offset + frameHeaderBytes);
      if (payloadMatches(header, payload, decoded.crc)) return { offset, seq: decoded.seq };
    }
    if (bytesRead < chunk.length) break;
  }
  return undefined;
}

/**
 * Writes `parts` one after the other at `position`, all of them: a short write (the disk filling up) is continued until
 * the system says why it cannot go on (ENOSPC, EDQUOT …), which is thrown. Resolves with the bytes written.
 */
export async function writeWhole(handle: FileHandle, parts: Uint8Array[], position: number): Promise<number> {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  let written = 0;
  while (written < total) {
    let skip = written;
    const rest: Uint8Array[] = [];
    for (const part of parts) {
      if (skip >= part.length) {
        skip -= part.length;
        continue;
      }
      rest.push(skip > 0 ? part.subarray(skip) : part);
      skip = 0;
    }
    const { bytesWritten } = await handle.writev(rest, position + written);
    if (bytesWritten === 0)
      throw Object.assign(new Error(`wrote ${written} of ${total} bytes, then nothing more: no space left on device`), {
        code: 'ENOSPC',
      });
    written += bytesWritten;
  }
  return total;
}
