// Delivers N-Quads batches to a sink (a store) without ever holding up the relay: batches queue in memory, go out
// in order, and when the sink is slow or down they are spooled to disk (fsynced) and retried with backoff until
// it is back. Spooled batches survive the process: the next delivery queue on the same spool file sends them first.
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';

export interface DeliverySink {
  ingest(nquads: string): Promise<unknown>;
}

export interface DeliveryEvents {
  /** The sink failed: batches are being spooled. */
  down(error: Error, spool: string): void;
  /** The sink took what was spooled. */
  up(delivered: number): void;
}

interface Batch {
  nquads: string;
  /** Where it is kept while undelivered: only in memory, or in the spool file too. */
  spooled: boolean;
}

export class DeliveryQueue {
  private readonly queue: Batch[] = [];
  private running: Promise<void> | undefined;
  private down = false;
  private retryDelay = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  delivered = 0;

  constructor(
    private readonly sink: DeliverySink,
    private readonly spoolFile: string,
    private readonly events: DeliveryEvents,
    private readonly maxRetryDelay = 5_000,
  ) {
    // What an earlier process spooled goes first.
    if (existsSync(spoolFile)) {
      for (const line of readFileSync(spoolFile, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          this.queue.push({ nquads: (JSON.parse(line) as { nquads: string }).nquads, spooled: true });
        } catch {
          // a torn last line of a crashed process: it was never delivered nor complete
        }
      }
    }
  }

  /** Batches waiting (in memory or spooled). */
  get pending(): number {
    return this.queue.length;
  }

  get spooling(): boolean {
    return this.down;
  }

  add(nquads: string): void {
    if (nquads === '') return;
    const batch: Batch = { nquads, spooled: false };
    if (this.down) this.spool(batch);
    this.queue.push(batch);
    this.kick();
  }

  private spool(batch: Batch): void {
    appendFileSync(this.spoolFile, JSON.stringify({ nquads: batch.nquads }) + '\n');
    const fd = openSync(this.spoolFile, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    batch.spooled = true;
  }

  private kick(): void {
    if (!this.running && !this.retryTimer) this.running = this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue[0]!;
      try {
        await this.sink.ingest(batch.nquads);
      } catch (error) {
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
      this.queue.shift();
      this.delivered += 1;
      if (batch.spooled) this.rewriteSpool();
      if (this.down && !this.queue.some((b) => b.spooled)) {
        this.down = false;
        this.retryDelay = 250;
        this.events.up(this.delivered);
      }
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
      writeSync(fd, left.map((b) => JSON.stringify({ nquads: b.nquads }) + '\n').join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.spoolFile);
  }

  /**
   * Waits until everything is delivered or `deadlineMs` passes; then whatever is left is in the spool file (for
   * the next run). Resolves to the number of batches left undelivered.
   */
  async flush(deadlineMs: number): Promise<number> {
    const deadline = Date.now() + deadlineMs;
    this.kick();
    while (this.queue.length > 0 && Date.now() < deadline) {
      // A drain in progress is waited for; between retries (the backoff timer) the loop only sleeps.
      await (this.running ?? new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(0, deadline - Date.now())))));
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const batch of this.queue) if (!batch.spooled) this.spool(batch);
    return this.queue.length;
  }
}
