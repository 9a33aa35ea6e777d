// Reads converter input — one JSON-RPC message, a JSON array (batch), or JSONL/NDJSON of messages or capture
// records — into records, one per message, each with its line (or batch index). A bad line is an error for that
// line only; the others still come through.
import { inspectJson, type JsonValue } from '../core/json.js';
import { jsonErrorOffset } from '../core/json-error.js';
import { duplicateKey, keyCount } from '../core/duplicate-keys.js';
import { McpLdError } from '../core/problem.js';
import { invalidUtf8, invalidUtf8Offset } from '../core/utf8.js';
import { toRecord, type InputRecord } from './records.js';

export interface InputItem {
  /** 1-based line of the message in the input (for a batch: the line the batch starts on). */
  line: number;
  /** Position in a JSON array batch. */
  index?: number;
  record?: InputRecord;
  error?: McpLdError;
}

/** Nesting deeper than this is refused: MCP messages are far shallower, and deep input is an attack. */
const defaultMaxDepth = 128;

function malformed(detail: string, line: number): McpLdError {
  return McpLdError.of('input.malformed-json', { detail, line });
}

function tooDeep(limit: number, line: number): McpLdError {
  return McpLdError.of('input.too-deep', { detail: `JSON nests deeper than ${limit} levels`, line });
}

/** The line and column of `offset` in `text`, whose first line is line `firstLine` of the input. */
function position(text: string, offset: number, firstLine: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: firstLine + (before.match(/\n/g)?.length ?? 0), column: offset - before.lastIndexOf('\n') };
}

/** Parses one JSON text, turning where JSON.parse stopped into a line and column of the whole input. */
function parseJson(text: string, firstLine: number): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    const message = (error as Error).message;
    const given = /position (\d+)/.exec(message);
    const offset = given ? Number(given[1]) : jsonErrorOffset(text);
    if (offset < 0) throw malformed(message, firstLine);
    const { line, column } = position(text, offset, firstLine);
    throw malformed(`${whatIsWrong(message, text, offset)} at line ${line}, column ${column}`, line);
  }
}

/** JSON.parse's complaint, without the position or the echo of the input it appends, said plainly where it is not. */
function whatIsWrong(message: string, text: string, offset: number): string {
  if (offset >= text.length) return 'the JSON text ends before it is complete (truncated?)';
  if (text.charCodeAt(offset) === 0xfeff)
    return 'a byte order mark (U+FEFF), which JSON text must not start with (save it as UTF-8 without a BOM),';
  return message.replace(/ (?:in JSON )?at position \d+.*$/s, '').replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
}

function outOfRange(line: number): McpLdError {
  return McpLdError.of('input.number-out-of-range', {
    detail:
      'a number is past the range of a double (such as 1e400): it would be read as Infinity and could not be given back; send it as a string',
    line,
  });
}

function duplicated(key: string, line: number, column: number): McpLdError {
  return McpLdError.of('input.duplicate-key', {
    detail: `the key ${JSON.stringify(key)} is given twice in one object, the second time at line ${line}, column ${column}: JSON.parse would keep only the last one; send each key once`,
    line,
  });
}

/**
 * The error of a parsed JSON text mcp-ld cannot keep exactly, if any: nesting deeper than `maxDepth` levels (plus
 * `nesting`, the levels around the messages: a batch's array), a number past a double, a key given twice. `text`
 * starts on line `textLine`; `line` is the line errors without a place of their own are reported on.
 */
function keepError(
  value: JsonValue,
  text: string,
  textLine: number,
  line: number,
  maxDepth: number,
  nesting = 0,
): McpLdError | undefined {
  const inspected = inspectJson(value, maxDepth + nesting);
  if (inspected.broken === 'depth') return tooDeep(maxDepth, line);
  if (inspected.broken === 'number') return outOfRange(line);
  // The text has more keys than the value when JSON.parse dropped one: only then is it searched for which.
  if (keyCount(text) === inspected.keys) return undefined;
  const found = duplicateKey(text);
  if (!found) return undefined;
  const at = position(text, found.offset, textLine);
  return duplicated(found.key, at.line, at.column);
}

/**
 * One JSON text (starting on line `line` of the input) parsed, or the McpLdError of what stops mcp-ld from keeping it
 * exactly: malformed JSON (with its line and column), nesting deeper than `maxDepth`, a number past a double, a key
 * given twice.
 */
export function parseJsonText(text: string, line = 1, maxDepth = defaultMaxDepth): JsonValue {
  const value = parseJson(text, line);
  const broken = keepError(value, text, line, line, maxDepth);
  if (broken) throw broken;
  return value;
}

/** The item on line `line` of one JSON text (starting on line `textLine`), parsed here or by the caller (`parsed`). */
function asItem(text: string, textLine: number, line: number, maxDepth: number, parsed?: JsonValue): InputItem {
  try {
    const value = parsed !== undefined ? parsed : parseJson(text, textLine);
    const broken = keepError(value, text, textLine, line, maxDepth);
    if (broken) throw broken;
    return { line, record: toRecord(value, line) };
  } catch (error) {
    if (error instanceof McpLdError) return { line, error };
    throw error;
  }
}

/** One line of JSONL/NDJSON (blank lines yield nothing). */
export function parseLine(text: string, line: number, maxDepth = defaultMaxDepth): InputItem | undefined {
  return text.trim() === '' ? undefined : asItem(text, line, line, maxDepth);
}

function hasContentAfter(text: string, position: number): boolean {
  for (let i = position; i < text.length; i++) if (text.charCodeAt(i) > 32) return true;
  return false;
}

function isJsonObjectText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith('{') && isJson(trimmed);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Where input bytes are not UTF-8: for each line that has a bad byte, the item of its first. */
type InvalidLines = Map<number, InputItem>;

function invalidLineItem(bytes: Buffer, lineStart: number, lineEnd: number, line: number): InputItem | undefined {
  const bad = invalidUtf8Offset(bytes.subarray(lineStart, lineEnd));
  return bad < 0 ? undefined : { line, error: invalidUtf8(lineStart + bad, bytes[lineStart + bad], line) };
}

/** The start and end (before the newline) of every line of `bytes`, numbered from 1. */
function* linesOf(bytes: Buffer): Generator<[start: number, end: number, line: number]> {
  for (let lineStart = 0, line = 1; lineStart < bytes.length; line++) {
    let lineEnd = bytes.indexOf(10, lineStart);
    if (lineEnd < 0) lineEnd = bytes.length;
    yield [lineStart, lineEnd, line];
    lineStart = lineEnd + 1;
  }
}

function invalidLines(bytes: Buffer): InvalidLines {
  const found: InvalidLines = new Map();
  for (const [start, end, line] of linesOf(bytes)) {
    const item = invalidLineItem(bytes, start, end, line);
    if (item) found.set(line, item);
  }
  return found;
}

/**
 * All messages of a whole input: text, or its UTF-8 bytes. JSONL bytes are decoded line by line: one non-ASCII
 * character makes V8 decode a whole input into a two-byte string, several times slower to decode and to parse
 * than the mostly ASCII lines on their own. Bytes that are not UTF-8 are refused (never replaced by U+FFFD): the line
 * they are on, or the whole message or batch they are in.
 */
export function* parseInput(input: string | Uint8Array, maxDepth = defaultMaxDepth): Generator<InputItem> {
  if (typeof input === 'string') return yield* parseText(input, maxDepth);
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const firstBad = invalidUtf8Offset(bytes);
  let start = 0;
  while (start < bytes.length && bytes[start]! <= 32) start++;
  const firstEnd = bytes.indexOf(10, start);
  const wholeText =
    start === bytes.length ||
    bytes[start] === 0x5b /* [ */ ||
    (firstEnd >= 0 && !isJson(bytes.toString('utf8', start, firstEnd)));
  if (wholeText)
    return yield* parseText(bytes.toString('utf8'), maxDepth, firstBad >= 0 ? invalidLines(bytes) : undefined);
  for (const [lineStart, lineEnd, line] of linesOf(bytes)) {
    const item =
      (firstBad >= 0 && lineEnd > firstBad && invalidLineItem(bytes, lineStart, lineEnd, line)) ||
      parseLine(bytes.toString('utf8', lineStart, lineEnd), line, maxDepth);
    if (item) yield item;
  }
}

function* parseText(text: string, maxDepth: number, invalid?: InvalidLines): Generator<InputItem> {
  const start = text.search(/\S/);
  if (start < 0) {
    yield { line: 1, error: McpLdError.of('input.empty', { detail: 'no JSON-RPC message in the input', line: 1 }) };
    return;
  }
  // A message or batch spanning lines is refused whole when any of its bytes are not UTF-8.
  const firstInvalid = invalid?.values().next().value;
  const firstLine = 1 + (text.slice(0, start).match(/\n/g)?.length ?? 0);
  if (text[start] === '[') {
    if (firstInvalid) return yield firstInvalid;
    let value: JsonValue;
    try {
      value = parseJson(text, 1);
      const broken = keepError(value, text, 1, firstLine, maxDepth, 1);
      if (broken) throw broken;
    } catch (error) {
      if (error instanceof McpLdError) return yield { line: error.line ?? firstLine, error };
      throw error;
    }
    const batch = value as JsonValue[];
    if (batch.length === 0)
      yield {
        line: firstLine,
        error: McpLdError.of('input.empty', { detail: 'the batch is an empty array', line: firstLine }),
      };
    for (const [index, item] of batch.entries()) {
      try {
        yield { line: firstLine, index, record: toRecord(item) };
      } catch (error) {
        if (!(error instanceof McpLdError)) throw error;
        yield {
          line: firstLine,
          index,
          error: new McpLdError({
            code: error.code,
            status: error.status,
            title: error.title,
            detail: `batch item ${index}: ${error.detail}`,
            pointer: `/${index}`,
            line: firstLine,
          }),
        };
      }
    }
    return;
  }
  // JSONL when the first line is a JSON value of its own; otherwise one (pretty-printed) message.
  const firstEnd = text.indexOf('\n', start);
  const firstLineText = firstEnd < 0 ? text.slice(start) : text.slice(start, firstEnd);
  if (firstEnd >= 0 && hasContentAfter(text, firstEnd) && !isJson(firstLineText)) {
    let whole: JsonValue | undefined;
    try {
      whole = JSON.parse(text) as JsonValue;
    } catch {
      // neither: JSONL with a bad first line
    }
    if (whole !== undefined) return yield firstInvalid ?? asItem(text, 1, firstLine, maxDepth, whole);
    // Neither parses. JSONL whose first line is bad has later lines that are JSON objects of their own; a
    // pretty-printed
    // message with a mistake has none: it is reported as one message, where the mistake is.
    if (
      !text
        .slice(firstEnd + 1)
        .split('\n')
        .some(isJsonObjectText)
    )
      return yield firstInvalid ?? asItem(text, 1, firstLine, maxDepth);
  }
  const lines = text.split('\n');
  for (const [i, content] of lines.entries()) {
    const item = invalid?.get(i + 1) ?? parseLine(content, i + 1, maxDepth);
    if (item) yield item;
  }
}
