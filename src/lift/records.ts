// What the lifter consumes: a capture record (the corpus format) or a plain JSON-RPC message, and how either is
// recognised. A plain message is wrapped in a record with nothing but `msg`.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { isBase64, isWellFormed } from '../rdf/literals.js';
import type { Direction } from '../schema/index.js';
import { captureTime } from './capture-time.js';

/**
 * What the HTTP request that carried a client's message said of it besides its body: 2026-07-28's `Mcp-Method` and
 * `Mcp-Name` headers, as sent (an `Mcp-Name` may be in the `=?base64?…?=` form).
 */
export interface HttpFacts {
  mcpMethod?: string;
  mcpName?: string;
}

/** Where a recorded line stands: its place in the capture, its time, direction, server, session and HTTP facts. */
interface RecordPlace {
  seq?: number;
  ts?: string;
  dir?: Direction;
  server?: string;
  session?: string;
  http?: HttpFacts;
}

export interface CaptureRecord extends RecordPlace {
  msg: JsonObject;
  /** The wire text, beside `msg`, when `JSON.stringify(msg)` would not give it back. */
  raw?: string;
}

/**
 * A line the tap relayed that was not JSON (a banner a server printed on stdout), or JSON mcp-ld cannot keep exactly
 * as a message (a key given twice, a number past a double, too deep): kept, with its place.
 */
export interface RawLineRecord extends RecordPlace {
  /**
   * The line's text; with `encoding: "base64"`, the base64 of its bytes (bytes that are not UTF-8: no text holds them).
   */
  raw: string;
  encoding?: 'base64';
}

export type InputRecord = CaptureRecord | RawLineRecord;

export function isRawLine(record: InputRecord): record is RawLineRecord {
  return !('msg' in record);
}

export type MessageShape = 'request' | 'notification' | 'response' | 'error';

const recordKeys = new Set(['seq', 'ts', 'dir', 'server', 'session', 'http', 'msg', 'raw', 'encoding']);
const httpKeys = new Set(['mcpMethod', 'mcpName']);

/** Why `http` cannot be a record's HTTP facts, or undefined when it can. */
function httpProblem(http: unknown): string | undefined {
  if (!isJsonObject(http)) return 'must be an object';
  for (const [key, value] of Object.entries(http)) {
    if (!httpKeys.has(key)) return `has an unknown field "${key}" (it may have "mcpMethod" and "mcpName")`;
    if (typeof value !== 'string') return `"${key}" must be a string`;
    if (!isWellFormed(value)) return `"${key}" must be well-formed Unicode`;
  }
  return undefined;
}

/** The longest session id, in characters: one the API can still name (GET and DELETE /sessions/{id}). */
export const maxSessionLength = 500;

/** Why `session` cannot be a session id, or undefined when it can. */
export function sessionProblem(session: unknown): string | undefined {
  if (typeof session !== 'string' || session === '') return 'must be a non-empty string';
  if (!isWellFormed(session)) return 'must be well-formed Unicode (it has a lone surrogate, which no URL can carry)';
  // No more UTF-16 units than the limit: no more characters either (counting them costs an array per record).
  if (session.length > maxSessionLength && [...session].length > maxSessionLength)
    return `must be at most ${maxSessionLength} characters (it has ${[...session].length})`;
  return undefined;
}

function invalid(detail: string, line?: number): McpLdError {
  return McpLdError.of('input.not-mcp', { detail, ...(line !== undefined ? { line } : {}) });
}

/** The JSON-RPC shape of a message, or an error naming what is missing. */
export function messageShape(msg: JsonObject, line?: number): MessageShape {
  if ('method' in msg) {
    if (typeof msg['method'] !== 'string') throw invalid('"method" must be a string', line);
    return 'id' in msg ? 'request' : 'notification';
  }
  if ('result' in msg) return 'response';
  if ('error' in msg) {
    if (!isJsonObject(msg['error'])) throw invalid('"error" must be an object', line);
    return 'error';
  }
  throw invalid('a JSON-RPC message has "method" (request, notification), "result" or "error" (response)', line);
}

/** Whether a parsed JSON value is a capture record rather than a plain message. */
export function isCaptureRecord(value: JsonObject): boolean {
  return (
    (isJsonObject(value['msg']) || typeof value['raw'] === 'string') &&
    !('method' in value) &&
    !('result' in value) &&
    !('error' in value)
  );
}

/** Turns one parsed JSON value into a record, checking every field it has. */
export function toRecord(value: JsonValue, line?: number): InputRecord {
  if (!isJsonObject(value))
    throw invalid(
      `expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
      line,
    );
  if (!isCaptureRecord(value)) {
    messageShape(value, line);
    return { msg: value };
  }
  for (const key of Object.keys(value))
    if (!recordKeys.has(key)) throw invalid(`capture record has an unknown field "${key}"`, line);
  if ('raw' in value && typeof value['raw'] !== 'string') throw invalid('"raw" must be a string', line);
  if ('encoding' in value) {
    if (value['encoding'] !== 'base64' || 'msg' in value)
      throw invalid('"encoding" must be "base64", on a raw line (a record without "msg")', line);
    if (!isBase64(value['raw'] as string))
      throw invalid('"raw" of a raw line with "encoding": "base64" must be base64', line);
  }
  const record = (
    'msg' in value ? { msg: value['msg'] as JsonObject } : { raw: value['raw'] as string }
  ) as InputRecord;
  const { seq, ts, dir, server, session } = value;
  if (seq !== undefined) {
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq)) throw invalid('"seq" must be an integer', line);
    record.seq = seq;
  }
  if (ts !== undefined) {
    if (typeof ts !== 'string' || Number.isNaN(captureTime(ts)))
      throw invalid('"ts" must be an ISO 8601 date-time', line);
    record.ts = ts;
  }
  if (dir !== undefined) {
    if (dir !== 'c2s' && dir !== 's2c') throw invalid('"dir" must be "c2s" or "s2c"', line);
    record.dir = dir;
  }
  if (server !== undefined) {
    if (typeof server !== 'string' || server === '') throw invalid('"server" must be a non-empty string', line);
    record.server = server;
  }
  if (session !== undefined) {
    const problem = sessionProblem(session);
    if (problem) throw invalid(`"session" ${problem}`, line);
    record.session = session as string;
  }
  if ('http' in value) {
    const problem = httpProblem(value['http']);
    if (problem) throw invalid(`"http" ${problem}`, line);
    record.http = value['http'] as HttpFacts;
  }
  if (isRawLine(record)) {
    if (value['encoding'] === 'base64') record.encoding = 'base64';
    return record;
  }
  if (typeof value['raw'] === 'string') record.raw = value['raw'];
  messageShape(record.msg, line);
  return record;
}
