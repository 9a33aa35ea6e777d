// Batches lifted N-Quads into store ingests, keeping one ingest in flight while the next batch is lifted. Each
// message's text goes straight into one reusable UTF-8 buffer (the store copies a batch before ingest returns): no
// batch string is ever built. The first store error stops it; what was acknowledged before stays stored.
import { isMcpLdError, McpLdError } from '../core/problem.js';
import type { QuadStore } from './quad-store.js';

export interface StoredCounts {
  quads: number;
  batches: number;
  messages: number;
}

export class BatchWriter {
  private buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  private used = 0;
  private messages = 0;
  private inFlight: Promise<void> | undefined;
  readonly stored: StoredCounts = { quads: 0, batches: 0, messages: 0 };
  error: McpLdError | undefined;

  constructor(
    private readonly store: QuadStore,
    private readonly batchMessages: number,
  ) {}

  async add(nquads: string): Promise<void> {
    if (this.used + nquads.length * 3 > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + nquads.length * 3));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    this.used += this.buffer.write(nquads, this.used, 'utf8');
    this.messages += 1;
    if (this.messages >= this.batchMessages) await this.flush();
  }

  async flush(): Promise<void> {
    // The previous batch first; only then is this one taken from the buffer (adds made meanwhile join it), so that
    // concurrent callers never write into bytes not yet handed to the store. ingest copies them before it returns.
    await this.inFlight;
    const messages = this.messages;
    const used = this.used;
    this.messages = 0;
    this.used = 0;
    if (this.error || used === 0) return;
    const previous = this.inFlight;
    const current = this.store.ingest(this.buffer.subarray(0, used)).then(
      (receipt) => {
        this.stored.quads += receipt.quads;
        this.stored.batches += 1;
        this.stored.messages += messages;
      },
      (error: unknown) => {
        this.error ??= isMcpLdError(error) ? error : new McpLdError({ code: 'store.failed', status: 500, title: 'Store failure', detail: String(error) });
      },
    );
    this.inFlight = previous ? Promise.all([previous, current]).then(() => undefined) : current;
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.inFlight;
  }
}
