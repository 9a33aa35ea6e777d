// The embedded store: Oxigraph (WebAssembly) in a worker thread, fed N-Quads batches, with a journal as the truth —
// a data directory (snapshot + fsynced log, locked against a second process) or, without one, a copy in memory.
// Writes (batches, dropped graphs, SPARQL Updates) are checked before anything is written, logged and applied in one
// order, and acknowledged only when both are done; queries and updates run with a time limit, after which the worker
// is replaced and rebuilt from the journal. Each is tried on an empty engine first (embedded-probe.ts), so that what
// would kill the worker never reaches it; queries wait in a queue of their own, bounded (429), and their answers are
// bounded in rows and bytes inside the worker (result-limits.ts); an answer may stay there, handed out in chunks
// (result-chunks.ts).
// Longer than 400 lines on purpose: the order of writes (check, log, apply, acknowledge) and the replacement of a
// worker are one state machine over one queue; the engine, journal, probe and limits each have a module of their own.
import { StoreChanges } from './store-changes.js';
import { storeDefaults } from '../core/config.js';
import type { Quad } from '@rdfjs/types';
import type {
  GraphSummary,
  IngestOptions,
  IngestReceipt,
  PreparedIngest,
  QueryOptions,
  QueryResult,
  QueryText,
  QuadStore,
  ResultStream,
  UpdateOptions,
} from './quad-store.js';
import type { OpenedAnswer } from './result-chunks.js';
import { EmbeddedEngine, WorkerError, type Replay } from './embedded-engine.js';
import { EmbeddedProbe } from './embedded-probe.js';
import { TaskThread } from '../core/task-thread.js';
import { transferables, type UpdateOutcome } from './embedded-protocol.js';
import { FileJournal } from './file-journal.js';
import type { DataLock } from './data-lock.js';
import { MemoryJournal, type Journal, type JournalEntry } from './journal.js';
import { checkBatchBytes, type CheckedBatch } from './nquads-check.js';
import { checkGraphName, planQuery } from './query-dataset.js';
import { parseTriples, readQueryText } from './sparql-results.js';
import {
  diskFull,
  invalidQuery,
  isDiskFull,
  queryTimeout,
  resultTooLarge,
  storeBusy,
  storeClosed,
  storeCorrupt,
  storeFailed,
  storeFull,
  storeReadOnly,
  storeUnavailable,
  tooDemanding,
  updateFailed,
  updateTimeout,
} from './store-errors.js';
import type { LimitExceeded, ResultLimits } from './result-limits.js';
import { McpLdError } from '../core/problem.js';
import { SharedBuffers } from './shared-buffers.js';

export interface EmbeddedStoreOptions {
  /** Data directory; memory-only when absent. */
  dataDir?: string;
  /** Most quads the store takes; an ingest that could grow it past this is refused (507). Default 5,000,000. */
  maxQuads?: number;
  /** Default query time limit in milliseconds. Default 30,000. */
  queryTimeoutMs?: number;
  /** The journal is compacted into a snapshot when it is larger than this and than the snapshot. Default 512 MiB. */
  compactLogBytes?: number;
  /** Largest group of waiting ingests written (and fsynced) as one journal entry. Default 16 MiB. */
  groupBytes?: number;
  /** Most queries that may wait while one runs; one more is refused with store.busy (429). Default 8. */
  maxQueuedQueries?: number;
  /** Told about things worth a line on stderr (a torn journal tail that was cut off). */
  onWarning?: (message: string) => void;
  /**
   * Opened to read only: writes are refused (store.read-only, 409), and neither opening nor closing writes anything to
   * the data directory (no torn tail cut off, no compaction into a snapshot on close).
   */
  readOnly?: boolean;
  /** The data directory's lock, already taken (store-owner.ts); otherwise the store takes it. */
  lock?: DataLock;
}

const defaultMaxQuads = storeDefaults.maxQuads;
const defaultQueryTimeoutMs = storeDefaults.queryTimeoutMs;
const defaultMaxQueuedQueries = storeDefaults.maxQueued;

type PendingWrite =
  | {
      kind: 'quads';
      data: Uint8Array;
      checked: CheckedBatch;
      resolve: (receipt: IngestReceipt) => void;
      reject: (error: unknown) => void;
    }
  | { kind: 'drop'; graph: string; resolve: (dropped: boolean) => void; reject: (error: unknown) => void }
  | {
      kind: 'update';
      data: Uint8Array;
      timeoutMs: number;
      limitMs: number;
      resolve: () => void;
      reject: (error: unknown) => void;
    }
  | { kind: 'compact'; resolve: () => void; reject: (error: unknown) => void };

type QuadsWrite = Extract<PendingWrite, { kind: 'quads' }>;
type UpdateWrite = Extract<PendingWrite, { kind: 'update' }>;

const decoder = new TextDecoder();

/** About how much of an answer one chunk of a stream holds (characters of the worker's text). */
const streamChunkChars = 1024 * 1024;

/** Batches larger than this are checked in a thread: about 5 ms of the event loop per MiB otherwise. */
const threadCheckBytes = 1024 * 1024;
const checkThreadUrl = new URL('./nquads-check-thread.js', import.meta.url);

/** Batches one after the other in one shared buffer (from `buffers`), each ending with a newline. */
function concatLines(parts: Uint8Array[], buffers: SharedBuffers): Uint8Array {
  const ends = (part: Uint8Array) => part.length === 0 || part[part.length - 1] === 0x0a;
  const length = parts.reduce((sum, part) => sum + part.length + (ends(part) ? 0 : 1), 0);
  const out = buffers.take(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
    if (!ends(part)) out[offset++] = 0x0a;
  }
  return out;
}

/**
 * A journal that could not take a write: 507 when its disk is full, its own error (a lock taken over: 423), else 500.
 */
function journalFailure(location: string, reason: unknown): McpLdError {
  if (reason instanceof McpLdError) return reason;
  if (isDiskFull(reason)) return diskFull(location, reason.code!, 'nothing of this write was stored');
  return storeFailed(`could not write to ${location}: ${(reason as Error).message}`);
}

export class EmbeddedStore implements QuadStore {
  readonly kind = 'embedded' as const;
  /** Every write applied here, from this process or from the clients of the data directory it owns. */
  readonly changes = new StoreChanges();
  private readonly maxQuads: number;
  private readonly queryTimeoutMs: number;
  private readonly compactLogBytes: number;
  private readonly groupBytes: number;
  private readonly maxQueuedQueries: number;
  /** Queries between their call and their answer: the one the worker runs and those waiting. */
  private queriesInStore = 0;
  private engine!: EmbeddedEngine;
  /** Tries every query and update on an empty engine first: what would kill the worker is refused instead. */
  private readonly probe = new EmbeddedProbe();
  /** Checks large batches off the event loop (the bytes are shared with it). */
  private readonly checker = new TaskThread<Uint8Array, CheckedBatch>(checkThreadUrl, {
    maxWaiting: Number.MAX_SAFE_INTEGER, // one per ingest waiting, each holding its own batch already
    busyError: () => storeUnavailable('the N-Quads check is busy'),
    name: "the embedded store's N-Quads check",
  });
  /** Batch buffers, reused once a write is done with them (unless the journal keeps them: memory only). */
  private readonly buffers: SharedBuffers;
  private seq = 0;
  /** Answers the worker keeps for `queryStream` and `graphStream`, by cursor number; at most maxQueuedQueries + 1. */
  private readonly cursors = new Set<number>();
  private nextCursor = 1;
  /** An upper bound of the store's size: exact after `size`, plus every quad ingested since. */
  private sizeBound = 0;
  private readonly writes: PendingWrite[] = [];
  private writing: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly onWarning: (message: string) => void;
  private readonly readOnly: boolean;
  /**
   * What the journal holds beyond the snapshot, to tell whether compacting it pays: a journal of fresh quads only is
   * as quick to replay as a snapshot of them, and writing that snapshot costs a full dump (seconds per million quads).
   */
  private journalSince = { unknown: false, entries: 0, quads: 0, drops: 0, updates: 0, baseSize: 0 };
  private nextCompactionCheck = 0;

  private constructor(
    private readonly journal: Journal,
    options: EmbeddedStoreOptions,
  ) {
    this.maxQuads = options.maxQuads ?? defaultMaxQuads;
    this.queryTimeoutMs = options.queryTimeoutMs ?? defaultQueryTimeoutMs;
    this.compactLogBytes = options.compactLogBytes ?? 512 * 1024 * 1024;
    this.groupBytes = options.groupBytes ?? 16 * 1024 * 1024;
    this.maxQueuedQueries = options.maxQueuedQueries ?? defaultMaxQueuedQueries;
    this.onWarning = options.onWarning ?? (() => {});
    this.readOnly = options.readOnly === true;
    this.buffers = new SharedBuffers(journal.keepsEntries ? 0 : 4);
  }

  /** Opens the store: takes the data directory's lock and loads its snapshot and journal (or starts empty). */
  static async open(options: EmbeddedStoreOptions = {}): Promise<EmbeddedStore> {
    const journal = options.dataDir
      ? await FileJournal.open(options.dataDir, {
          readOnly: options.readOnly === true,
          ...(options.onWarning ? { onWarning: options.onWarning } : {}),
          ...(options.lock ? { lock: options.lock } : {}),
        })
      : new MemoryJournal();
    const store = new EmbeddedStore(journal, options);
    try {
      store.engine = await EmbeddedEngine.start(store.replay, journal.lastSeq);
      store.seq = journal.lastSeq;
      store.sizeBound = await store.engine.run<number>({ op: 'size' });
      store.journalSince = {
        unknown: journal.logBytes > 0,
        entries: 0,
        quads: 0,
        drops: 0,
        updates: 0,
        baseSize: store.sizeBound,
      };
    } catch (error) {
      await journal.close();
      throw error;
    }
    return store;
  }

  /** Where the data lives: "memory" or the data directory. */
  get location(): string {
    return this.journal.location;
  }

  get durable(): boolean {
    return this.journal.durable;
  }

  /** Worker rebuilds so far (after timeouts or failures) and how long the last one took. */
  get engineStats(): { restarts: number; lastRestartMs: number } {
    return { ...this.engine.stats };
  }

  private readonly replay: Replay = (load, upTo) =>
    this.journal.replay(upTo, {
      chunk: async (data, disposable) =>
        void (await load({ op: 'load', data }, disposable ? transferables([data]) : undefined)),
      entry: async (entry, disposable) => {
        if (entry.type === 'drop') return void (await load({ op: 'drop', graph: entry.graph }));
        const transfer = disposable ? transferables([entry.data]) : undefined;
        if (entry.type === 'quads') return void (await load({ op: 'load', data: entry.data }, transfer));
        // It applied before it was journaled, to the same graphs: failing now means the journal cannot be trusted.
        await load({ op: 'update', data: entry.data, check: false }, transfer).catch((error: unknown) => {
          throw error instanceof WorkerError
            ? storeCorrupt(
                `${this.journal.location}: the SPARQL Update of write ${entry.seq} no longer applies (${error.message})`,
              )
            : error;
        });
      },
    });

  /** Refuses a write to a closed or read-only store. */
  private assertWritable(): void {
    if (this.closing) throw storeClosed();
    if (this.readOnly) throw storeReadOnly(this.location);
  }

  async ingest(nquads: string | Uint8Array, options: IngestOptions = {}): Promise<IngestReceipt> {
    return (await this.prepareIngest(nquads, options)).ingest();
  }

  /** Copies the batch (before it returns) and checks it; its `ingest` then queues it in the write order. */
  async prepareIngest(nquads: string | Uint8Array, options: IngestOptions = {}): Promise<PreparedIngest> {
    this.assertWritable();
    // The batch as UTF-8 in shared memory, our own copy (or the caller's, handed over): checked, journaled and loaded
    // without another one.
    let data: Uint8Array;
    if (typeof nquads === 'string') {
      data = this.buffers.utf8(nquads);
    } else if (options.handOver && nquads.buffer instanceof SharedArrayBuffer) {
      data = nquads;
    } else {
      data = this.buffers.copy(nquads);
    }
    // A large batch is checked (UTF-8, then N-Quads) in a thread: the check costs about 5 ms of the event loop per MiB.
    // The lifter's own output is not checked again (see IngestOptions.lifted).
    let checked: CheckedBatch;
    try {
      checked =
        options.lifted ?? (data.length > threadCheckBytes ? await this.checker.run(data) : checkBatchBytes(data));
    } catch (error) {
      this.release(data);
      throw error;
    }
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      return true;
    };
    return {
      ingest: async () => {
        if (!settle()) throw new Error('a prepared ingest is stored or discarded once');
        try {
          this.assertWritable();
        } catch (error) {
          this.release(data);
          throw error;
        }
        if (checked.quads === 0) {
          this.release(data);
          return { quads: 0, graphs: [] };
        }
        const receipt = await new Promise<IngestReceipt>((resolve, reject) => {
          this.writes.push({ kind: 'quads', data, checked, resolve, reject });
          this.pump();
        });
        this.changes.emit({ graphs: receipt.graphs });
        return receipt;
      },
      discard: () => {
        if (settle()) this.release(data);
      },
    };
  }

  async deleteGraph(graph: string): Promise<boolean> {
    this.assertWritable();
    checkGraphName(graph);
    const dropped = await new Promise<boolean>((resolve, reject) => {
      this.writes.push({ kind: 'drop', graph, resolve, reject });
      this.pump();
    });
    if (dropped) this.changes.emit({ graphs: [graph] });
    return dropped;
  }

  /** Applies a SPARQL Update (checked by parse-update.ts) after the writes before it; see `applyUpdate`. */
  async update(sparql: string, options: UpdateOptions = {}): Promise<void> {
    this.assertWritable();
    const limitMs = options.timeoutMs ?? this.queryTimeoutMs;
    const timeoutMs = await this.probe.try({ op: 'update', sparql }, limitMs);
    const data = this.buffers.utf8(sparql);
    await new Promise<void>((resolve, reject) => {
      this.writes.push({ kind: 'update', data, timeoutMs, limitMs, resolve, reject });
      this.pump();
    });
    this.changes.emit({ graphs: [] });
  }

  /**
   * A query, in the queries' FIFO of the worker (writes and the store's own reads are served in turn with it). Past
   * `maxQueuedQueries` waiting it is refused at once (429) rather than kept waiting behind them.
   */
  async query(sparql: string, options: QueryOptions = {}): Promise<QueryResult> {
    return readQueryText(await this.queryText(sparql, options));
  }

  /** The answer as the worker wrote it (SPARQL JSON results or N-Triples), within the result limits. */
  async queryText(sparql: string, options: QueryOptions = {}): Promise<QueryText> {
    if (this.closing) throw storeClosed();
    if (this.queriesInStore > this.maxQueuedQueries) throw storeBusy(this.queriesInStore - 1, this.engine.busyForMs());
    this.queriesInStore += 1;
    try {
      return await this.runQuery(sparql, options);
    } finally {
      this.queriesInStore -= 1;
    }
  }

  private async runQuery(sparql: string, options: QueryOptions): Promise<QueryText> {
    const { form, answer } = await this.evaluate(sparql, options, undefined);
    if (!(answer instanceof Uint8Array)) throw resultTooLarge(answer as LimitExceeded);
    return { form, data: answer };
  }

  /**
   * A query run by the worker within its limits: its answer as text, or (with `cursor`) kept there to be handed out a
   * chunk at a time, answering its head.
   */
  private async evaluate(
    sparql: string,
    options: QueryOptions,
    cursor: number | undefined,
  ): Promise<{ form: QueryText['form']; answer: Uint8Array | LimitExceeded | OpenedAnswer }> {
    const { form, dataset } = planQuery(sparql, options);
    const probe = { op: 'query' as const, sparql, graphForm: form === 'CONSTRUCT' || form === 'DESCRIBE', dataset };
    const limitMs = options.timeoutMs ?? this.queryTimeoutMs;
    const timeoutMs = await this.probe.try(probe, limitMs);
    const limits: ResultLimits = {};
    if (options.maxRows !== undefined) limits.maxRows = options.maxRows;
    if (options.maxBytes !== undefined) limits.maxBytes = options.maxBytes;
    try {
      const request =
        cursor === undefined || form === 'ASK'
          ? { op: 'query' as const, sparql, form, dataset, limits }
          : { op: 'queryOpen' as const, cursor, sparql, form, dataset, limits, maxChars: streamChunkChars };
      const answer = await this.engine.run<Uint8Array | LimitExceeded | OpenedAnswer>(request, {
        timeoutMs,
        timeoutError: () => queryTimeout(limitMs),
        lane: 'queries',
        crashError: (reason) => tooDemanding('query', reason),
      });
      return { form, answer };
    } catch (error) {
      if (error instanceof WorkerError) throw invalidQuery(error.message);
      throw error;
    }
  }

  /**
   * The answer of `queryText` kept by the worker and handed out a chunk at a time (about 1 MiB each), so that only
   * the worker ever holds all of it. The limits are checked before the first chunk, as for `queryText`. A stream left
   * unread for the query time limit is closed (its next chunk then fails); at most maxQueuedQueries + 1 are open.
   */
  async queryStream(sparql: string, options: QueryOptions = {}): Promise<ResultStream> {
    if (this.closing) throw storeClosed();
    const cursor = this.openCursor();
    if (this.queriesInStore > this.maxQueuedQueries) throw storeBusy(this.queriesInStore - 1, this.engine.busyForMs());
    this.queriesInStore += 1;
    try {
      const { form, answer } = await this.evaluate(sparql, options, cursor);
      if (form === 'ASK') throw invalidQuery('an ASK query has no rows to stream');
      if (!('variables' in answer)) throw resultTooLarge(answer as LimitExceeded);
      return this.cursorStream(cursor, answer, options.timeoutMs ?? this.queryTimeoutMs);
    } catch (error) {
      this.cursors.delete(cursor);
      throw error;
    } finally {
      this.queriesInStore -= 1;
    }
  }

  async graphStream(graph: string): Promise<ResultStream | undefined> {
    if (this.closing) throw storeClosed();
    checkGraphName(graph);
    const cursor = this.openCursor();
    try {
      const opened = await this.engine.run<OpenedAnswer>({
        op: 'graphOpen',
        cursor,
        graph,
        maxChars: streamChunkChars,
      });
      if (!opened.first && !opened.more) {
        this.cursors.delete(cursor);
        return undefined;
      }
      return this.cursorStream(cursor, opened, this.queryTimeoutMs);
    } catch (error) {
      this.cursors.delete(cursor);
      throw error;
    }
  }

  /** A cursor number, when fewer than maxQueuedQueries + 1 answers are open (else 429). */
  private openCursor(): number {
    if (this.cursors.size > this.maxQueuedQueries) throw storeBusy(this.cursors.size, this.engine.busyForMs());
    const cursor = this.nextCursor++;
    this.cursors.add(cursor);
    return cursor;
  }

  /**
   * The stream of an opened answer: its first chunk, then the rest asked of the worker a chunk at a time when there is
   * more (a small answer, whole in its first chunk, holds no cursor and costs no more messages).
   */
  private cursorStream(cursor: number, opened: OpenedAnswer, idleMs: number): ResultStream {
    let first = opened.first;
    let more = opened.more;
    let timer: NodeJS.Timeout | undefined;
    if (!more) this.cursors.delete(cursor);
    const close = async () => {
      if (timer) clearTimeout(timer);
      first = undefined;
      if (!this.cursors.delete(cursor)) return;
      await this.engine.run({ op: 'cursorClose', cursor }).catch(() => undefined);
    };
    const idle = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void close(), idleMs);
      timer.unref();
    };
    if (more) idle();
    return {
      form: opened.form,
      variables: opened.variables,
      whole: !more,
      next: async () => {
        if (first !== undefined) {
          const chunk = first;
          first = undefined;
          return chunk;
        }
        if (!more) return undefined;
        if (!this.cursors.has(cursor))
          throw storeUnavailable('the answer was left unread longer than the query time limit and was let go');
        if (timer) clearTimeout(timer);
        let chunk: Uint8Array;
        try {
          chunk = await this.engine.run<Uint8Array>(
            { op: 'cursorNext', cursor, maxChars: streamChunkChars },
            { lane: 'queries' },
          );
        } catch (error) {
          this.cursors.delete(cursor);
          throw error instanceof WorkerError ? storeUnavailable(error.message) : error;
        }
        if (chunk.length === 0) {
          more = false;
          this.cursors.delete(cursor);
          return undefined;
        }
        idle();
        return chunk;
      },
      close,
    };
  }

  async graphs(): Promise<GraphSummary[]> {
    if (this.closing) throw storeClosed();
    const graphs = await this.engine.run<GraphSummary[]>({ op: 'graphs' });
    return graphs.sort((a, b) => (a.graph < b.graph ? -1 : a.graph > b.graph ? 1 : 0));
  }

  async graphQuads(graph: string): Promise<Quad[]> {
    return parseTriples(decoder.decode(await this.graphText(graph)), graph);
  }

  async graphText(graph: string): Promise<Uint8Array> {
    if (this.closing) throw storeClosed();
    checkGraphName(graph);
    return this.engine.run<Uint8Array>({ op: 'graphText', graph });
  }

  async size(): Promise<number> {
    if (this.closing) throw storeClosed();
    const size = await this.engine.run<number>({ op: 'size' });
    if (!this.writing) this.sizeBound = size;
    return size;
  }

  /**
   * Finishes the pending writes, compacts a durable journal into a snapshot when that pays (never when opened
   * read-only; a compaction that fails is a warning), stops the worker, releases the lock.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      while (this.writing) await this.writing;
      try {
        if (!this.readOnly && this.journal.durable && this.journal.logBytes > 0 && (await this.compactionPays()))
          await this.snapshot();
      } catch (error) {
        // The journal stays the truth: a compaction that failed (a full disk) costs the next open time, nothing else.
        this.onWarning(
          `could not compact the journal of ${this.journal.location} into a snapshot on close (${(error as Error).message}); it stays as it is`,
        );
      } finally {
        await this.probe.close();
        await this.checker.close();
        await this.engine.close();
        await this.journal.close();
      }
    })();
    return this.closing;
  }

  /** Writes the journal into a snapshot now (normally done when the journal grows, and on close). */
  compact(): Promise<void> {
    try {
      this.assertWritable();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.writes.push({ kind: 'compact', resolve, reject });
      this.pump();
    });
  }

  /**
   * Whether the journal holds enough that a snapshot would not (deleted graphs, quads the store already had, many
   * small entries, or entries of an earlier run, unknown) to be worth a full dump.
   */
  private async compactionPays(): Promise<boolean> {
    const since = this.journalSince;
    if (since.unknown || since.drops > 0 || since.updates > 0) return true;
    if (since.entries > 0 && this.journal.logBytes / since.entries < 64 * 1024 && this.journal.logBytes > 1024 * 1024)
      return true;
    const grown = (await this.engine.run<number>({ op: 'size' })) - since.baseSize;
    return since.quads > grown * 1.2;
  }

  /** Dumps the worker's graphs into a new snapshot; runs between writes (in the write pump, or after it on close). */
  private async snapshot(): Promise<void> {
    const seq = this.seq;
    const writer = await this.journal.snapshot(seq);
    try {
      await this.engine.run({ op: 'snapshotBegin' });
      for (;;) {
        const chunk = await this.engine.run<Uint8Array>({ op: 'snapshotNext', maxBytes: 8 * 1024 * 1024 });
        if (chunk.length === 0) break;
        await writer.add(chunk);
      }
      await writer.commit();
    } catch (error) {
      await writer.abort();
      throw error;
    }
    const size = await this.engine.run<number>({ op: 'size' });
    this.journalSince = { unknown: false, entries: 0, quads: 0, drops: 0, updates: 0, baseSize: size };
  }

  /** Store full: `reach` says what would have taken the store past its ceiling. */
  private full(reach: string): McpLdError {
    return storeFull(
      `${reach} past its limit of ${this.maxQuads} quads ` +
        '(MCPLD_MAX_QUADS; the embedded store runs in WebAssembly, which caps a process at 4 GiB): ' +
        'use a remote SPARQL store (--store URL / MCPLD_STORE) for graphs this large, or delete sessions first',
    );
  }

  /**
   * Whether a batch fits under the ceiling. Cheap while the store is well below it (an upper bound of its size plus
   * the batch); near it, the exact size and then the number of quads of the batch the store does not have yet.
   */
  private async fits(write: QuadsWrite): Promise<boolean> {
    if (this.sizeBound + write.checked.quads <= this.maxQuads) return true;
    this.sizeBound = await this.engine.run<number>({ op: 'size' });
    if (this.sizeBound + write.checked.quads <= this.maxQuads) return true;
    const fresh = await this.engine.run<number>({ op: 'countNew', data: write.data });
    return this.sizeBound + fresh <= this.maxQuads;
  }

  private pump(): void {
    if (this.writing) return;
    this.writing = (async () => {
      try {
        while (this.writes.length > 0) {
          const head = this.writes.shift()!;
          if (head.kind === 'drop') {
            await this.drop(head).catch(head.reject);
            continue;
          }
          if (head.kind === 'update') {
            await this.applyUpdate(head).catch(head.reject);
            await this.compactWhenLarge();
            continue;
          }
          if (head.kind === 'compact') {
            await this.snapshot().then(head.resolve, head.reject);
            continue;
          }
          if (!(await this.fits(head).catch(() => false))) {
            this.release(head.data);
            head.reject(
              this.full(`adding ${head.checked.quads} quads to the ${this.sizeBound} quads in the store could take it`),
            );
            continue;
          }
          // Group commit: the ingests waiting behind this one go into the same journal entry and fsync.
          const group: QuadsWrite[] = [head];
          let bytes = head.data.length;
          let quads = head.checked.quads;
          for (let next = this.writes[0]; next?.kind === 'quads'; next = this.writes[0]) {
            if (
              bytes + next.data.length > this.groupBytes ||
              this.sizeBound + quads + next.checked.quads > this.maxQuads
            )
              break;
            group.push(this.writes.shift() as QuadsWrite);
            bytes += next.data.length;
            quads += next.checked.quads;
          }
          await this.load(group, quads).catch((error: unknown) => group.forEach((w) => w.reject(error)));
          for (const w of group) this.release(w.data);
          await this.compactWhenLarge();
        }
      } finally {
        this.writing = undefined;
      }
    })();
  }

  /** After a write: a journal grown past its threshold is compacted into a snapshot, when that pays. */
  private async compactWhenLarge(): Promise<void> {
    const threshold = Math.max(this.compactLogBytes, this.journal.snapshotBytes, this.nextCompactionCheck);
    if (this.journal.logBytes <= threshold) return;
    // On failure the journal stays the truth, and a later write tries again.
    if (await this.compactionPays().catch(() => false)) {
      await this.snapshot().catch((error: unknown) =>
        this.onWarning(`could not compact the journal of ${this.journal.location}: ${(error as Error).message}`),
      );
    } else {
      this.nextCompactionCheck = this.journal.logBytes * 1.5;
    }
  }

  /** A batch's bytes, once nothing reads them any more, back to the buffers — unless the journal keeps them. */
  private release(data: Uint8Array): void {
    if (!this.journal.keepsEntries) this.buffers.give(data);
  }

  /** Logs and loads one group of batches as one write; on failure, retries its members one by one. */
  private async load(group: QuadsWrite[], quads: number): Promise<void> {
    // One copy of the bytes, shared by the journal (write, or keep in memory) and the worker (load).
    const data =
      group.length === 1
        ? group[0]!.data
        : concatLines(
            group.map((w) => w.data),
            this.buffers,
          );
    const failure = await this.write({ type: 'quads', seq: ++this.seq, data }, { op: 'load', data });
    if (group.length > 1) this.release(data);
    if (!failure) {
      this.sizeBound += quads;
      this.journalSince.entries += 1;
      this.journalSince.quads += quads;
      for (const w of group) w.resolve({ quads: w.checked.quads, graphs: w.checked.graphs });
      return;
    }
    if (group.length > 1) {
      for (const w of group) await this.load([w], w.checked.quads);
      return;
    }
    group[0]!.reject(failure);
  }

  private async drop(write: Extract<PendingWrite, { kind: 'drop' }>): Promise<void> {
    try {
      if (!(await this.engine.run<boolean>({ op: 'hasGraph', graph: write.graph }))) return write.resolve(false);
    } catch (error) {
      return write.reject(error);
    }
    const failure = await this.write(
      { type: 'drop', seq: ++this.seq, graph: write.graph },
      { op: 'drop', graph: write.graph },
    );
    if (failure) return write.reject(failure);
    this.journalSince.drops += 1;
    write.resolve(true);
  }

  /**
   * One update: applied by the worker first and journaled after — unlike a batch, checked before it is written and
   * then logged and loaded at once: Oxigraph may refuse an update that parsed, and the journal must never hold a write
   * its replay would fail on. An update the worker refused left it unchanged (Oxigraph applies all of one or nothing);
   * one the store takes back (it wrote into the default graph, took the store past its ceiling, or could not be
   * journaled) is undone by rebuilding the worker from the journal.
   */
  private async applyUpdate(write: UpdateWrite): Promise<void> {
    const appliedBefore = this.engine.appliedSeq;
    const seq = ++this.seq;
    let outcome: UpdateOutcome;
    try {
      // A timed-out worker has been replaced and rebuilt without the update already.
      const timeoutError = () => updateTimeout(write.limitMs, '; nothing of it was applied');
      const crashError = (reason: string) => tooDemanding('update', reason);
      outcome = await this.engine.run<UpdateOutcome>(
        { op: 'update', data: write.data, check: true },
        { seq, timeoutMs: write.timeoutMs, timeoutError, crashError },
      );
    } catch (error) {
      if (error instanceof WorkerError)
        return write.reject(updateFailed(`the store refused the update: ${error.message}`));
      return write.reject(error);
    }
    const generation = this.engine.generation; // as the worker applied it
    let refusal: McpLdError | undefined;
    if (outcome.defaultGraph) {
      refusal = updateFailed(
        'the update wrote into the default graph, which this store does not keep (queries read the union of the session graphs): write inside GRAPH <…> { … }; nothing of it was applied',
      );
    } else if (outcome.size > this.maxQuads) {
      refusal = this.full(`the update was not applied: it would take the store to ${outcome.size} quads,`);
    } else {
      try {
        await this.journal.append({ type: 'update', seq, data: write.data });
      } catch (error) {
        refusal = journalFailure(this.journal.location, error);
      }
    }
    if (refusal) {
      await this.rollBack(appliedBefore);
      return write.reject(refusal);
    }
    await this.rebuildIfReplaced(generation);
    this.sizeBound = outcome.size;
    this.journalSince.entries += 1;
    this.journalSince.updates += 1;
    write.resolve();
  }

  /**
   * One write: appended to the journal (fsynced) and applied by the worker at the same time. Both or neither: a write
   * the worker could not apply is taken back from the journal, and a write the journal could not take is taken back
   * from the worker by rebuilding it from the journal. Resolves with the error, or undefined on success.
   */
  private async write(
    entry: JournalEntry,
    request: { op: 'load'; data: Uint8Array } | { op: 'drop'; graph: string },
  ): Promise<McpLdError | undefined> {
    const appliedBefore = this.engine.appliedSeq;
    let generation = this.engine.generation;
    const applying = this.engine.run(request, { seq: entry.seq }).then(() => {
      generation = this.engine.generation; // as the worker applied it
    });
    const [logged, applied] = await Promise.allSettled([this.journal.append(entry), applying]);
    if (logged.status === 'fulfilled' && applied.status === 'fulfilled') {
      await this.rebuildIfReplaced(generation);
      return undefined;
    }
    if (logged.status === 'fulfilled') await this.journal.retract(entry.seq).catch(() => undefined);
    // A load without a transaction may have left part of the batch behind; the journal knows exactly what holds.
    await this.rollBack(appliedBefore);
    if (applied.status === 'rejected') {
      const error = applied.reason as unknown;
      if (error instanceof WorkerError)
        return McpLdError.of('store.invalid-nquads', { detail: `the store refused the batch: ${error.message}` });
      return error instanceof McpLdError ? error : storeFailed(String(error));
    }
    return journalFailure(this.journal.location, (logged as PromiseRejectedResult).reason);
  }

  /**
   * A worker replacement (another request's timeout) that started after a write was applied — `generation` then — may
   * have replayed the journal before the journal had the write: the worker is rebuilt again, now that it has it.
   */
  private async rebuildIfReplaced(generation: number): Promise<void> {
    if (this.engine.generation !== generation) await this.engine.rebuild().catch(() => undefined);
  }

  /** Takes back from the worker whatever it applied after sequence `appliedBefore`: it is rebuilt from the journal. */
  private async rollBack(appliedBefore: number): Promise<void> {
    this.engine.appliedSeq = Math.min(this.engine.appliedSeq, appliedBefore);
    await this.engine.rebuild().catch(() => undefined);
  }
}
