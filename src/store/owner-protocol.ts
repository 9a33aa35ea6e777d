// The messages between the owner of a data directory (store-owner.ts) and the processes it serves (owner-client.ts),
// over a Unix socket: each a header (JSON) and a payload (bytes: a batch of N-Quads, an answer), framed as
// [u32 header length][u32 payload length][header][payload]. The owner speaks first, with the token of its lock.
import type { ProblemDetails } from '../core/problem.js';
import { McpLdError } from '../core/problem.js';
import type { QueryOptions, UpdateOptions } from './quad-store.js';
import { storeFailed } from './store-errors.js';

export type OwnerRequest =
  | { id: number; op: 'ingest' }
  | { id: number; op: 'queryText'; sparql: string; options: QueryOptions }
  | { id: number; op: 'update'; sparql: string; options: UpdateOptions }
  | { id: number; op: 'graphs' | 'size' | 'status' }
  | { id: number; op: 'graphText' | 'deleteGraph'; graph: string };

/** What `status` tells of an owner. */
export interface OwnerStatus {
  pid: number;
  /** `serve`, `ingest` or `own` (the background owner that other commands start). */
  command: string;
  since: string;
  dataDir: string;
  /** Processes connected to it now. */
  clients: number;
  sessions: number;
  quads: number;
}

const headerBytes = 8;

/** One message as bytes: its framing, header and payload, to write in one go. */
export function encodeOwnerMessage(header: object, payload?: Uint8Array): Buffer[] {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const frame = Buffer.alloc(headerBytes);
  frame.writeUInt32BE(json.length, 0);
  frame.writeUInt32BE(payload?.length ?? 0, 4);
  return payload && payload.length > 0
    ? [frame, json, Buffer.from(payload.buffer, payload.byteOffset, payload.length)]
    : [frame, json];
}

interface OwnerMessage {
  header: Record<string, unknown>;
  payload: Buffer;
}

/** Cuts a byte stream into messages as it arrives. */
export class OwnerMessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): OwnerMessage[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: OwnerMessage[] = [];
    for (;;) {
      if (this.buffered < headerBytes) break;
      const head = this.peek(headerBytes);
      const length = headerBytes + head.readUInt32BE(0) + head.readUInt32BE(4);
      if (this.buffered < length) break;
      const whole = this.take(length);
      const jsonEnd = headerBytes + whole.readUInt32BE(0);
      messages.push({
        header: JSON.parse(whole.subarray(headerBytes, jsonEnd).toString('utf8')) as Record<string, unknown>,
        payload: whole.subarray(jsonEnd),
      });
    }
    return messages;
  }

  private peek(length: number): Buffer {
    if (this.chunks[0]!.length < length) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!.subarray(0, length);
  }

  private take(length: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const rest = all.subarray(length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return all.subarray(0, length);
  }
}

/** An error as it crosses the socket: an McpLdError keeps its problem details; anything else is a store failure. */
export function problemOf(error: unknown): ProblemDetails {
  if (error instanceof McpLdError) {
    const { code, status, title, detail, pointer, line, retryAfter } = error;
    return {
      code,
      status,
      title,
      detail,
      ...(pointer !== undefined ? { pointer } : {}),
      ...(line !== undefined ? { line } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  }
  return problemOf(storeFailed((error as Error)?.message ?? String(error)));
}
