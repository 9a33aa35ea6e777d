// The truth of the embedded store: a snapshot (the graphs as chunks of N-Quads) plus the writes since, each with a
// sequence
// number. The Oxigraph worker is only a cache of it, rebuilt from it on start and after a timeout. This module holds
// the interface and the memory-only journal; file-journal.ts holds the durable one.

/**
 * One write since the snapshot: a batch of N-Quads (UTF-8), a dropped graph, or a SPARQL Update (UTF-8 text) that the
 * worker applied before it was journaled, so that replaying it gives the same graphs again.
 */
export type JournalEntry =
  | { type: 'quads'; seq: number; data: Uint8Array }
  | { type: 'drop'; seq: number; graph: string }
  | { type: 'update'; seq: number; data: Uint8Array };

/** The bytes a journal keeps for an entry. */
export function entryPayload(entry: JournalEntry): Uint8Array {
  return entry.type === 'drop' ? Buffer.from(entry.graph, 'utf8') : entry.data;
}

/** Receives a replay. `disposable`: the bytes were read for this replay only, and may be moved to another thread. */
export interface JournalSink {
  /** One chunk of the snapshot: N-Quads (UTF-8) of some graphs. */
  chunk(nquads: Uint8Array, disposable: boolean): Promise<void>;
  entry(entry: JournalEntry, disposable: boolean): Promise<void>;
}

export interface SnapshotWriter {
  /** Adds a chunk of N-Quads (whole statements) to the snapshot. */
  add(nquads: Uint8Array): Promise<void>;
  /** Makes the snapshot the truth (covering every write up to its sequence number) and drops the entries it covers. */
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface Journal {
  /** Where the truth lives, for messages ("memory", or the data directory). */
  readonly location: string;
  readonly durable: boolean;
  /** Whether the journal keeps the bytes of the entries appended (memory only), which then must not be reused. */
  readonly keepsEntries: boolean;
  /** Highest sequence number in the journal. */
  readonly lastSeq: number;
  /** Bytes of entries since the snapshot, and of the snapshot. */
  readonly logBytes: number;
  readonly snapshotBytes: number;
  /** Appends a write; for a durable journal it is on disk when this resolves. Calls must not overlap. */
  append(entry: JournalEntry): Promise<void>;
  /** Takes back the last appended write (it could not be applied). */
  retract(seq: number): Promise<void>;
  /** Feeds the snapshot and then every entry with a sequence number up to `upTo` to the sink. */
  replay(upTo: number, sink: JournalSink): Promise<void>;
  /** Starts a snapshot covering every write up to `seq`. */
  snapshot(seq: number): Promise<SnapshotWriter>;
  close(): Promise<void>;
}

/** The memory-only journal: the ingested batches (UTF-8, outside the JS heap) to rebuild the worker from. */
export class MemoryJournal implements Journal {
  readonly location = 'memory';
  readonly durable = false;
  readonly keepsEntries = true;
  lastSeq = 0;
  logBytes = 0;
  snapshotBytes = 0;
  private entries: JournalEntry[] = [];
  private snapshotChunks: Uint8Array[] = [];

  async append(entry: JournalEntry): Promise<void> {
    this.entries.push(entry);
    this.lastSeq = Math.max(this.lastSeq, entry.seq);
    this.logBytes += entryPayload(entry).length;
  }

  async retract(seq: number): Promise<void> {
    const last = this.entries[this.entries.length - 1];
    if (last && last.seq === seq) {
      this.entries.pop();
      this.logBytes -= entryPayload(last).length;
    }
  }

  async replay(upTo: number, sink: JournalSink): Promise<void> {
    for (const chunk of [...this.snapshotChunks]) await sink.chunk(chunk, false);
    for (const entry of [...this.entries]) {
      if (entry.seq > upTo) break;
      await sink.entry(entry, false);
    }
  }

  async snapshot(seq: number): Promise<SnapshotWriter> {
    const chunks: Uint8Array[] = [];
    return {
      add: async (nquads) => {
        chunks.push(nquads);
      },
      commit: async () => {
        this.snapshotChunks = chunks;
        this.snapshotBytes = chunks.reduce((sum, c) => sum + c.length, 0);
        this.entries = this.entries.filter((e) => e.seq > seq);
        this.logBytes = this.entries.reduce((sum, e) => sum + entryPayload(e).length, 0);
      },
      abort: async () => {},
    };
  }

  async close(): Promise<void> {
    this.entries = [];
    this.snapshotChunks = [];
  }
}
