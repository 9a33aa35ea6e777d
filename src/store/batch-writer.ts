// Batches lifted N-Quads into store ingests, keeping one ingest in flight while the next batch is lifted — and, on an
// embedded store of this process, the batch after it checked meanwhile (prepareIngest), stored only once the one before
// is; a batch of messages whose lifter counted them is not checked again (IngestOptions.lifted). Each
// message's text (or the bytes of several, lifted in another thread) goes straight into one reusable UTF-8 buffer (the
// store copies a batch before ingest returns): no batch string is ever built. The first store error stops it; what
// was acknowledged before stays stored.
import { isMcpLdError, McpLdError } from '../core/problem.js';
import type { IngestReceipt, QuadStore } from './quad-store.js';

/** What stopped a writer: the store's own error, or any other failure as `store.failed`. */
export function asStoreError(error: unknown): McpLdError {
  return isMcpLdError(error) ? error : McpLdError.of('store.failed', { detail: String(error) });
}

interface StoredCounts {
  quads: number;
  batches: number;
  messages: number;
}

export class BatchWriter {
  private buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  private used = 0;
  /** Bytes given to addBytes that begin the batch, kept as they are until more join them. */
  private kept: Uint8Array | undefined;
  private messages = 0;
  /** What the lifter counted of every message in the batch so far (IngestOptions.lifted), while each add says it. */
  private counted: { quads: number; graphs: string[] } | undefined = { quads: 0, graphs: [] };
  /** The batches handed to the store and not answered yet (at most two: one stored, the next checked meanwhile). */
  private readonly inFlight = new Set<Promise<void>>();
  /** The last of them: the next batch is stored once it is. */
  private last: Promise<void> | undefined;
  readonly stored: StoredCounts = { quads: 0, batches: 0, messages: 0 };
  error: McpLdError | undefined;

  /**
   * `store` may still be opening (`mcp-ld ingest` lifts its first batch meanwhile): a store that fails to open is this
   * writer's error, and the caller, awaiting the same promise, reports it.
   */
  constructor(
    private readonly store: QuadStore | Promise<QuadStore>,
    private readonly batchMessages: number,
  ) {}

  /**
   * One message's N-Quads. `lifted`: what this process's lifter counted of them (its quads, the graph they are in),
   * so that the store need not check them again (IngestOptions.lifted); a batch with a message without it is checked.
   */
  async add(nquads: string, lifted?: { quads: number; graph: string }): Promise<void> {
    this.reserve(nquads.length * 3);
    this.used += this.buffer.write(nquads, this.used, 'utf8');
    this.messages += 1;
    const counted = this.counted;
    if (!lifted) this.counted = undefined;
    else if (counted && lifted.quads > 0) {
      counted.quads += lifted.quads;
      // A message's graph is mostly the one before it (sessions come in runs).
      if (counted.graphs.at(-1) !== lifted.graph && !counted.graphs.includes(lifted.graph))
        counted.graphs.push(lifted.graph);
    }
    if (this.messages >= this.batchMessages) await this.flush();
  }

  /**
   * The N-Quads of `messages` messages at once, as UTF-8 bytes (lifted elsewhere) handed over to the writer: bytes
   * that start a batch are kept as they are unless more join them, and then handed over to the store (one wide message:
   * 25 MB, never copied on this thread).
   */
  async addBytes(nquads: Uint8Array, messages: number): Promise<void> {
    if (this.used === 0 && this.kept === undefined) this.kept = nquads;
    else {
      this.reserve(nquads.length);
      this.buffer.set(nquads, this.used);
      this.used += nquads.length;
    }
    this.messages += messages;
    this.counted = undefined;
    if (this.messages >= this.batchMessages) await this.flush();
  }

  private reserve(bytes: number): void {
    const kept = this.kept;
    if (kept) {
      // More joins the bytes kept: they go into the buffer first.
      this.kept = undefined;
      this.reserve(kept.length + bytes);
      this.buffer.set(kept, this.used);
      this.used += kept.length;
      return;
    }
    if (this.used + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + bytes));
    this.buffer.copy(grown, 0, 0, this.used);
    this.buffer = grown;
  }

  async flush(): Promise<void> {
    // Room for this batch first; only then is it taken from the buffer (adds made meanwhile join it), so that
    // concurrent callers never write into bytes not yet handed to the store. ingest and prepareIngest copy them before
    // they return.
    let store: QuadStore;
    try {
      store = await this.store;
    } catch (error) {
      this.error ??= asStoreError(error);
      return;
    }
    const prepare = store.prepareIngest?.bind(store);
    while (this.inFlight.size >= (prepare ? 2 : 1)) await Promise.race(this.inFlight);
    const messages = this.messages;
    const kept = this.kept;
    const batch = kept ?? this.buffer.subarray(0, this.used);
    const lifted = this.counted;
    this.messages = 0;
    this.used = 0;
    this.kept = undefined;
    this.counted = { quads: 0, graphs: [] };
    if (this.error || batch.length === 0) return;
    // Bytes kept as they came are the writer's alone (moved here from another thread): the store may keep them.
    const options = { handOver: kept !== undefined, ...(lifted ? { lifted } : {}) };
    // Undefined: not stored, as a batch before it failed.
    let stored: Promise<IngestReceipt | undefined>;
    if (prepare) {
      // Checked now, stored after the batch before it, and not at all once one failed.
      const prepared = prepare(batch, options);
      prepared.catch(() => undefined); // an invalid batch is answered in its turn, below
      const previous = this.last;
      stored = (async () => {
        await previous;
        const checked = await prepared;
        if (this.error) {
          checked.discard();
          return undefined;
        }
        return checked.ingest();
      })();
    } else {
      stored = store.ingest(batch, options);
    }
    const current: Promise<void> = stored
      .then(
        (receipt) => {
          if (!receipt) return;
          this.stored.quads += receipt.quads;
          this.stored.batches += 1;
          this.stored.messages += messages;
        },
        (error: unknown) => {
          this.error ??= asStoreError(error);
        },
      )
      .finally(() => this.inFlight.delete(current));
    this.inFlight.add(current);
    this.last = current;
  }

  async finish(): Promise<void> {
    await this.flush();
    await Promise.all(this.inFlight);
  }
}
