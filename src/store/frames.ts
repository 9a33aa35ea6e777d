// The record format of the embedded store's journal and snapshot: length- and checksum-framed entries, each with
// the sequence number of the write it records. A reader stops at a torn or corrupt frame; it never yields part of one.
import { crc32 } from 'node:zlib';

/**
 * What a frame records: N-Quads (a write, or a chunk of a snapshot), a deleted graph, a SPARQL Update (its UTF-8 text,
 * as applied), or a snapshot's header/end.
 */
export type FrameType = 'quads' | 'drop' | 'update' | 'header';

const typeCodes: Record<FrameType, number> = { quads: 0x51, drop: 0x44, update: 0x55, header: 0x48 }; // Q D U H
const typesByCode = new Map(Object.entries(typeCodes).map(([type, code]) => [code, type as FrameType]));

/** Every frame starts with it: "MLD1". */
export const frameMagic = 0x4d4c4431;
const magic = frameMagic;
export const frameHeaderBytes = 24;
/** Largest payload a frame may carry (a guard against reading a garbage length as a real one). */
const maxFramePayload = 1024 * 1024 * 1024;

// Layout: magic u32 | type u8 | 3 reserved | seq u64 | payload length u32 | crc32(type, seq, length, payload) u32.
/** The header of a frame whose payload is the concatenation of `parts`. */
export function encodeFrameHeader(type: FrameType, seq: number, ...parts: Uint8Array[]): Buffer {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  if (length > maxFramePayload)
    throw new RangeError(`a frame payload of ${length} bytes is over the limit of ${maxFramePayload}`);
  const header = Buffer.alloc(frameHeaderBytes);
  header.writeUInt32BE(magic, 0);
  header.writeUInt8(typeCodes[type], 4);
  header.writeBigUInt64BE(BigInt(seq), 8);
  header.writeUInt32BE(length, 16);
  let crc = crc32(header.subarray(4, 20));
  for (const part of parts) crc = crc32(part, crc);
  header.writeUInt32BE(crc, 20);
  return header;
}

export function encodeFrame(type: FrameType, seq: number, payload: Uint8Array): Buffer {
  return Buffer.concat([encodeFrameHeader(type, seq, payload), payload]);
}

type HeaderCheck =
  { ok: true; type: FrameType; seq: number; length: number; crc: number } | { ok: false; reason: string };

export function decodeFrameHeader(header: Buffer): HeaderCheck {
  if (header.length < frameHeaderBytes) return { ok: false, reason: 'truncated header' };
  if (header.readUInt32BE(0) !== magic) return { ok: false, reason: 'bad magic number' };
  const type = typesByCode.get(header.readUInt8(4));
  if (!type) return { ok: false, reason: 'unknown frame type' };
  const length = header.readUInt32BE(16);
  if (length > maxFramePayload) return { ok: false, reason: 'implausible length' };
  return { ok: true, type, seq: Number(header.readBigUInt64BE(8)), length, crc: header.readUInt32BE(20) };
}

export function payloadMatches(header: Buffer, payload: Buffer, crc: number): boolean {
  return crc32(payload, crc32(header.subarray(4, 20))) === crc;
}
