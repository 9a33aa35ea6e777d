// The embedded store's batch buffers: UTF-8 in shared memory (checked, journaled and loaded without another copy), kept
// for the next batch once a write is done with them. A fresh buffer of a few MiB costs its page faults on first touch
// (about 1.6 s of the event loop per million quads ingested in 1,000-message batches); a reused one costs a copy.
const encoder = new TextEncoder();

/** Buffers smaller than this are allocated for each batch (malloc serves them well) and never kept. */
const pooledFrom = 256 * 1024;
/** Buffers larger than this are not kept: one wide batch would hold its memory for good. */
const pooledUpTo = 64 * 1024 * 1024;
const mib = 1024 * 1024;

export class SharedBuffers {
  /** Buffers no write holds any more, smallest first. */
  private readonly spare: SharedArrayBuffer[] = [];
  /** The buffers this pool allocated: only those are taken back. */
  private readonly own = new WeakSet<SharedArrayBuffer>();

  /** `keep`: how many buffers to keep for reuse; 0 when none will come back (a journal in memory keeps every batch). */
  constructor(private readonly keep = 4) {}

  /** A view of `bytes` bytes in shared memory, wholly the caller's until it is given back. */
  take(bytes: number): Uint8Array {
    // Exact size unless it may be reused: rounding up a buffer that never comes back costs the zeroing of the extra
    // pages on every batch (POST /ingest on a memory-only store spent twice the time allocating batches).
    if (this.keep === 0 || bytes < pooledFrom || bytes > pooledUpTo)
      return new Uint8Array(new SharedArrayBuffer(bytes));
    const index = this.spare.findIndex((buffer) => buffer.byteLength >= bytes);
    if (index >= 0) return new Uint8Array(this.spare.splice(index, 1)[0]!, 0, bytes);
    // Room for batches a quarter larger, so that the next ones of about this size fit it.
    const buffer = new SharedArrayBuffer(Math.min(pooledUpTo, Math.ceil((bytes * 1.25) / mib) * mib));
    this.own.add(buffer);
    return new Uint8Array(buffer, 0, bytes);
  }

  /** A copy of `data` in shared memory. */
  copy(data: Uint8Array): Uint8Array {
    const copy = this.take(data.byteLength);
    copy.set(data);
    return copy;
  }

  /** `text` as UTF-8 in shared memory. */
  utf8(text: string): Uint8Array {
    const bytes = this.take(Buffer.byteLength(text, 'utf8'));
    encoder.encodeInto(text, bytes);
    return bytes;
  }

  /**
   * Takes back a view that nothing reads any more (not the journal, the check thread or the worker); others are
   * ignored. The largest `keep` buffers are kept.
   */
  give(data: Uint8Array): void {
    const buffer = data.buffer;
    if (!(buffer instanceof SharedArrayBuffer) || !this.own.has(buffer) || this.spare.includes(buffer)) return;
    this.spare.push(buffer);
    this.spare.sort((a, b) => a.byteLength - b.byteLength);
    if (this.spare.length > this.keep) this.spare.shift();
  }
}
