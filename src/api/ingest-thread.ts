// The thread behind ingest-lifting.ts: reads and lifts what POST /ingest is sent, chunk by chunk, into N-Quads bytes
// for the store. It owns the lifters (one per default protocol version, each keeping its sessions across requests,
// so that a request and its response in different POSTs still match) and the tally of each ingest under way.
import { serveTasks, type TaskAnswer } from '../core/task-thread.js';
import { McpLdError, type ProblemDetails } from '../core/problem.js';
import { loadSchema, seedVersion, type ProtocolVersion } from '../schema/index.js';
import { Lifter } from '../lift/lifter.js';
import { Conversion, type ConversionSummary } from '../lift/convert.js';
import { parseInput, parseLine, type InputItem } from '../lift/input.js';

/** A line of a streamed body, or the number of a line longer than the line limit (its text never sent). */
/**
 * A line of a streamed body: its text; or only its number, when it is too long or its bytes are refused (not UTF-8).
 */
export type StreamedLine =
  | { line: number; text: string }
  | { line: number; tooLong: number }
  | { line: number; refused: { code: string; status: number; title: string; detail: string } };

export type IngestRequest =
  | { op: 'begin'; id: number; protocol?: ProtocolVersion; strict: boolean; session: string }
  | { op: 'lines'; id: number; lines: StreamedLine[] }
  | { op: 'body'; id: number; text: string | Uint8Array }
  | { op: 'next'; id: number; messages: number }
  | { op: 'end'; id: number }
  | { op: 'abort'; id: number };

/** N-Quads of some messages, one after the other (UTF-8). `done`: a body has no message left. */
export interface LiftedChunk {
  nquads: Uint8Array;
  messages: number;
  done: boolean;
}

/**
 * What an ingest lifted in all: the summary (its failed lines' errors as plain details), sessions, the default used.
 */
export interface IngestTally {
  summary: Omit<ConversionSummary, 'failed'> & { failed: { line: number; index?: number; error: ProblemDetails }[] };
  sessions: string[];
  usedSession: boolean;
}

interface Ingest {
  lifter: Lifter;
  conversion: Conversion;
  session: string;
  usedSession: boolean;
  sessions: Set<string>;
  /** The items of a body read whole, not lifted yet. */
  pending?: Iterator<InputItem>;
}

const lifters = new Map<ProtocolVersion, Lifter>();
const ingests = new Map<number, Ingest>();
const encoder = new TextEncoder();

function lifterFor(protocol: ProtocolVersion = seedVersion): Lifter {
  let lifter = lifters.get(protocol);
  if (lifter === undefined) lifters.set(protocol, (lifter = new Lifter(loadSchema({ protocol }))));
  return lifter;
}

/** Lifts `items` into one chunk of N-Quads (in strict mode the first bad one throws). */
async function lift(ingest: Ingest, items: Iterable<InputItem>): Promise<{ text: string; messages: number }> {
  let text = '';
  let messages = 0;
  await ingest.conversion.run(items, {
    lift: (record) => {
      if (record.session === undefined) {
        record.session = ingest.session;
        ingest.usedSession = true;
      }
      ingest.sessions.add(record.session);
      return ingest.lifter.liftToNQuads(record);
    },
    take: (lifted) => {
      text += lifted.nquads;
      messages += 1;
    },
  });
  return { text, messages };
}

/** A chunk's N-Quads as UTF-8 in shared memory, which the main thread hands over to the store as they are. */
function chunk(lifted: { text: string; messages: number }, done: boolean): TaskAnswer<LiftedChunk> {
  const nquads = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(lifted.text, 'utf8')));
  encoder.encodeInto(lifted.text, nquads);
  return { value: { nquads, messages: lifted.messages, done } };
}

function* streamedItems(lines: StreamedLine[]): Generator<InputItem> {
  for (const line of lines) {
    if ('refused' in line) {
      yield { line: line.line, error: new McpLdError({ ...line.refused, line: line.line }) };
      continue;
    }
    if ('tooLong' in line) {
      const detail = `line ${line.line} is longer than the limit of ${line.tooLong} bytes (MCPLD_BODY_LIMIT)`;
      yield { line: line.line, error: McpLdError.of('input.line-too-long', { detail, line: line.line }) };
      continue;
    }
    const item = parseLine(line.text, line.line);
    if (item) yield item;
  }
}

function* take(items: Iterator<InputItem>, messages: number, onEnd: () => void): Generator<InputItem> {
  // Items that fail take no room in a chunk: only records count towards `messages`.
  for (let taken = 0; taken < messages;) {
    const next = items.next();
    if (next.done) return onEnd();
    if (next.value.record) taken += 1;
    yield next.value;
  }
}

async function handle(request: IngestRequest): Promise<TaskAnswer<LiftedChunk | IngestTally | null>> {
  if (request.op === 'begin') {
    const lifter = lifterFor(request.protocol);
    ingests.set(request.id, {
      lifter,
      conversion: new Conversion({ strict: request.strict }),
      session: request.session,
      usedSession: false,
      sessions: new Set(),
    });
    return { value: null };
  }
  const ingest = ingests.get(request.id);
  if (!ingest)
    throw McpLdError.of('ingest.lost', {
      detail: 'the thread that lifts ingests was restarted; send the body again',
      retryAfter: 1,
    });
  try {
    switch (request.op) {
      case 'lines':
        return chunk(await lift(ingest, streamedItems(request.lines)), false);
      case 'body':
        ingest.pending = parseInput(request.text)[Symbol.iterator]();
        return { value: null };
      case 'next': {
        let done = ingest.pending === undefined;
        const lifted = done
          ? { text: '', messages: 0 }
          : await lift(
              ingest,
              take(ingest.pending!, request.messages, () => (done = true)),
            );
        return chunk(lifted, done);
      }
      case 'end': {
        ingests.delete(request.id);
        const { failed, ...summary } = ingest.conversion.summary;
        const plain = failed.map((f) => ({
          line: f.line,
          ...(f.index !== undefined ? { index: f.index } : {}),
          error: { code: f.error.code, status: f.error.status, title: f.error.title, detail: f.error.detail },
        }));
        return {
          value: {
            summary: { ...summary, failed: plain },
            sessions: [...ingest.sessions],
            usedSession: ingest.usedSession,
          },
        };
      }
      case 'abort':
        ingests.delete(request.id);
        return { value: null };
    }
  } catch (error) {
    // Strict mode stops at the first bad line or invalid message: the ingest is over.
    ingests.delete(request.id);
    throw error;
  }
}

serveTasks<IngestRequest, LiftedChunk | IngestTally | null>(handle);
