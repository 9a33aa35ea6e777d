// The messages between the embedded store (main thread) and its Oxigraph worker thread: plain, structured-clonable
// data only. Text crosses as UTF-8 bytes (shared or transferred), never as strings: V8 clones a string of a few
// megabytes far slower than it copies, shares or moves its bytes. Shared by embedded-engine.ts and embedded-thread.ts.
import type { QueryForm } from './quad-store.js';
import type { ResultLimits } from './result-limits.js';
import type { DatasetPlan } from './query-dataset.js';

export type ThreadRequest =
  | { id: number; op: 'load'; data: Uint8Array }
  | { id: number; op: 'drop'; graph: string }
  | { id: number; op: 'update'; data: Uint8Array; check: boolean }
  | { id: number; op: 'query'; sparql: string; form: QueryForm; dataset: DatasetPlan; limits?: ResultLimits }
  /**
   * A query whose answer is handed out a chunk of about maxChars at a time (see result-chunks.ts): answers its head and
   * first chunk (an OpenedAnswer); the worker keeps the rest, if any, for `cursorNext`.
   */
  | {
      id: number;
      op: 'queryOpen';
      cursor: number;
      sparql: string;
      form: Exclude<QueryForm, 'ASK'>;
      dataset: DatasetPlan;
      limits?: ResultLimits;
      maxChars: number;
    }
  /** A graph's triples handed out the same way. */
  | { id: number; op: 'graphOpen'; cursor: number; graph: string; maxChars: number }
  /** The next chunk of a cursor, about maxChars (empty: there is no more, and the cursor is gone). */
  | { id: number; op: 'cursorNext'; cursor: number; maxChars: number }
  | { id: number; op: 'cursorClose'; cursor: number }
  | { id: number; op: 'graphs' }
  | { id: number; op: 'hasGraph'; graph: string }
  | { id: number; op: 'graphText'; graph: string }
  | { id: number; op: 'size' }
  | { id: number; op: 'countNew'; data: Uint8Array }
  | { id: number; op: 'snapshotBegin' }
  | { id: number; op: 'snapshotNext'; maxBytes: number };

/**
 * What an applied update left (asked for with `check`; a replay skips it): the store's size (a full count, ~0.1 s per
 * million quads) and whether the default graph holds quads now (which neither queries nor snapshots see, so the store
 * takes such an update back).
 */
export interface UpdateOutcome {
  size: number;
  defaultGraph: boolean;
}

/** A request without its id (the engine numbers them). */
export type EngineRequest = ThreadRequest extends infer R ? (R extends ThreadRequest ? Omit<R, 'id'> : never) : never;

/** `fatal`: the engine trapped (a WebAssembly runtime error, out of memory) and must not be used any more. */
export type ThreadResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; fatal: boolean };

/** The ArrayBuffers of `views` that can be moved to the other thread (not shared, not pooled, wholly theirs). */
export function transferables(views: Uint8Array[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) {
    const buffer = view.buffer;
    if (buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength)
      buffers.add(buffer);
  }
  return [...buffers];
}
