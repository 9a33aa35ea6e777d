// Delivers N-Quads batches to a sink (a store) without ever holding up the relay: batches queue in memory, go out
// in order, and when the sink is slow or down they are spooled to disk (fsynced) and retried with backoff until
// it is back. Spooled batches survive the process: the next delivery queue on the same spool file sends them first.
// A batch the sink will never take (refused as bad input, or failing the same way attempt after attempt) is set
// aside in a quarantine file, said so, and the batches behind it go on: one bad batch never jams the spool.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { encodeSegment } from '../rdf/vocabulary.js';

export interface DeliverySink {
  /** Stores a batch; resolves to how many quads were stored, when the sink tells (a bridged service lifts them). */
  ingest(nquads: string): Promise<{ quads?: number } | void>;
}

/** What became of the records handed to a queue: stored, still in the spool (memory or disk), or set aside. */
interface DeliveryTally {
  stored: { records: number; quads: number };
  quarantined: number;
}

/** The HTTP statuses (and McpLdError statuses) that refuse a batch itself as bad input, whoever sends it. */
export const badInputStatuses: ReadonlySet<number> = new Set([400, 413, 415, 422]);

/** Thrown by a sink for a batch it refuses as bad input: retrying cannot help, so it is quarantined at once. */
export class BatchRefused extends Error {}

/** Thrown by a sink that answered but failed on this batch (an internal error, not the sink being down): retried a
 *  few times, then quarantined, so that a batch which always fails cannot block the ones behind it. */
export class BatchFailed extends Error {}

interface DeliveryEvents {
  /** The sink failed: batches are being spooled. */
  down(error: Error, spool: string): void;
  /** The sink took what was spooled. */
  up(delivered: number): void;
  /** A batch was set aside in `file`: `reason` says why. */
  quarantined(reason: string, file: string): void;
}

interface DeliveryOptions {
  /** Longest wait between two retries (ms). */
  maxRetryDelay?: number;
  /** Where refused batches go; by default beside the spool, `….rejected.jsonl`. */
  quarantineFile?: string;
  /** How many BatchFailed answers for one batch before it is quarantined. */
  maxFailures?: number;
}

/** The spool file of a delivery target (a data directory, a store or a service URL) in `spoolDir`. */
export function spoolFileFor(spoolDir: string, target: string): string {
  return path.join(spoolDir, `${encodeSegment(target)}.spool.jsonl`);
}

/** The quarantine file beside a spool file: `x.spool.jsonl` → `x.rejected.jsonl`. */
export function quarantineFileFor(spoolFile: string): string {
  return `${spoolFile.replace(/(\.spool)?\.jsonl$/, '')}.rejected.jsonl`;
}

/** Appends to a file and fsyncs it, through one descriptor. */
function appendDurably(file: string, text: string): void {
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

interface Batch {
  nquads: string;
  /** Capture records (messages and raw lines) it holds. */
  records: number;
  /** When it was made (ISO 8601): the time of its oldest record, give or take the batching delay. */
  at: string;
  /** Where it is kept while undelivered: only in memory, or in the spool file too. */
  spooled: boolean;
}

/** A batch as a line of the spool file (and, with why and when, of the quarantine file). */
function spoolLine(batch: Batch, extra: object = {}): string {
  return JSON.stringify({ nquads: batch.nquads, records: batch.records, at: batch.at, ...extra }) + '\n';
}

/** Reads a spool (or quarantine) file: its batches, a torn last line left out. */
export function readSpool(file: string): { nquads: string; records: number; at?: string }[] {
  if (!existsSync(file)) return [];
  const batches = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const batch = JSON.parse(line) as { nquads: string; records?: number; at?: string };
      // Lines written before the count was kept say nothing of it: counted as one record, the least a batch holds.
      batches.push({ nquads: batch.nquads, records: batch.records ?? 1, ...(batch.at ? { at: batch.at } : {}) });
    } catch {
      // a torn last line of a crashed process: it was never delivered nor complete
    }
  }
  return batches;
}

export class DeliveryQueue {
  private readonly queue: Batch[] = [];
  private running: Promise<void> | undefined;
  private down = false;
  private retryDelay = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Set by flush: the queue is done; what is left stays in the spool for the next run, and nothing is retried. */
  private closed = false;
  /** BatchFailed answers for the batch at the head of the queue. */
  private headFailures = 0;
  private readonly maxRetryDelay: number;
  private readonly maxFailures: number;
  readonly quarantineFile: string;
  delivered = 0;
  quarantined = 0;
  readonly tally: DeliveryTally = { stored: { records: 0, quads: 0 }, quarantined: 0 };

  constructor(
    private readonly sink: DeliverySink,
    private readonly spoolFile: string,
    private readonly events: DeliveryEvents,
    options: DeliveryOptions = {},
  ) {
    this.maxRetryDelay = options.maxRetryDelay ?? 5_000;
    this.maxFailures = options.maxFailures ?? 5;
    this.quarantineFile = options.quarantineFile ?? quarantineFileFor(spoolFile);
    // What an earlier process spooled goes first.
    for (const batch of readSpool(spoolFile))
      this.queue.push({ ...batch, at: batch.at ?? new Date().toISOString(), spooled: true });
    this.earlier = this.queue.length;
  }

  /** Batches an earlier process had spooled, which this queue sends first. */
  readonly earlier: number;

  /** Records waiting (in memory or spooled). */
  get pendingRecords(): number {
    return this.queue.reduce((sum, batch) => sum + batch.records, 0);
  }

  /** Batches waiting (in memory or spooled). */
  get pending(): number {
    return this.queue.length;
  }

  get spooling(): boolean {
    return this.down;
  }

  add(nquads: string, records = 1, at = new Date().toISOString()): void {
    if (nquads === '') return;
    const batch: Batch = { nquads, records, at, spooled: false };
    if (this.down || this.closed) this.spool(batch);
    this.queue.push(batch);
    this.kick();
  }

  private spool(batch: Batch): void {
    appendDurably(this.spoolFile, spoolLine(batch));
    batch.spooled = true;
  }

  /** Sets the head batch aside. A quarantine line has the spool's shape (plus why and when): moved back into the
   *  spool file, it is sent again by the next run. */
  private quarantine(batch: Batch, reason: string): void {
    appendDurably(this.quarantineFile, spoolLine(batch, { reason, quarantinedAt: new Date().toISOString() }));
    this.quarantined += 1;
    this.tally.quarantined += batch.records;
    this.events.quarantined(reason, this.quarantineFile);
  }

  private kick(): void {
    if (!this.running && !this.retryTimer && !this.closed)
      this.running = this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.closed) {
      const batch = this.queue[0]!;
      let receipt: { quads?: number } | void;
      try {
        receipt = await this.sink.ingest(batch.nquads);
      } catch (error) {
        const failures = error instanceof BatchFailed ? ++this.headFailures : 0;
        if (error instanceof BatchRefused || failures >= this.maxFailures) {
          this.quarantine(
            batch,
            failures > 0 ? `${(error as Error).message} (${failures} attempts)` : (error as Error).message,
          );
          this.settleHead(batch);
          continue;
        }
        // After flush the queue is done: what is left is spooled already, and the store closing is not news.
        if (this.closed) return;
        if (!this.down) {
          this.down = true;
          for (const waiting of this.queue) if (!waiting.spooled) this.spool(waiting);
          this.events.down(error as Error, this.spoolFile);
        }
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.kick();
        }, this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, this.maxRetryDelay);
        return;
      }
      this.delivered += 1;
      this.tally.stored.records += batch.records;
      this.tally.stored.quads += receipt?.quads ?? 0;
      this.settleHead(batch);
    }
  }

  /** The head batch was delivered or quarantined: it leaves the queue (and the spool). */
  private settleHead(batch: Batch): void {
    this.queue.shift();
    this.headFailures = 0;
    if (batch.spooled) this.rewriteSpool();
    if (this.down && !this.queue.some((b) => b.spooled)) {
      this.down = false;
      this.retryDelay = 250;
      this.events.up(this.delivered);
    }
  }

  /** The spool file holds exactly the spooled batches not yet delivered. */
  private rewriteSpool(): void {
    const left = this.queue.filter((b) => b.spooled);
    if (left.length === 0) {
      if (existsSync(this.spoolFile)) unlinkSync(this.spoolFile);
      return;
    }
    const temporary = `${this.spoolFile}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, left.map((b) => spoolLine(b)).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.spoolFile);
  }

  /**
   * Waits until everything is delivered or `deadlineMs` passes; then whatever is left is in the spool file (for
   * the next run), and the queue is done: it retries nothing more. Resolves to the number of batches left undelivered.
   */
  async flush(deadlineMs: number): Promise<number> {
    const deadline = Date.now() + deadlineMs;
    this.kick();
    while (this.queue.length > 0 && Date.now() < deadline) {
      // A drain in progress is waited for, but never past the deadline (a store that does not answer would otherwise
      // hold the process for good); between retries (the backoff timer) the loop only sleeps.
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const sleep = new Promise<void>(
        (resolve) => (timer = setTimeout(resolve, this.running ? left : Math.min(50, left))),
      );
      await Promise.race([this.running ?? sleep, sleep]);
      clearTimeout(timer);
    }
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const batch of this.queue) if (!batch.spooled) this.spool(batch);
    return this.queue.length;
  }
}
