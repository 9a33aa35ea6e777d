// Lifting for POST /ingest in a worker thread of its own (ingest-thread.ts), so that a wide message (40,000 keys lift
// to
// 25 MB of N-Quads in half a second) or a long batch never holds up the event loop, and queries being checked in the
// other thread (offload.ts) never hold up ingestion. One ingest is a conversation: begin, chunks, end.
import { McpLdError } from '../core/problem.js';
import { TaskThread } from '../core/task-thread.js';
import type { ConversionSummary } from '../lift/convert.js';
import type { ProtocolVersion } from '../schema/index.js';
import type { IngestRequest, IngestTally, LiftedChunk, StreamedLine } from './ingest-thread.js';

const threadUrl = new URL('./ingest-thread.js', import.meta.url);

export class IngestLifting {
  private readonly thread = new TaskThread<IngestRequest, unknown>(threadUrl, {
    // Each ingest waits for its own chunk before it sends the next: no more wait than there are ingests.
    maxWaiting: Number.MAX_SAFE_INTEGER,
    busyError: () => McpLdError.of('service.busy', { detail: 'too many ingests', retryAfter: 1 }),
    name: 'the thread that lifts ingests',
  });
  private nextId = 1;

  constructor() {
    this.thread.warm();
  }

  /** Starts one ingest: plain messages go to `session`; `strict` stops at the first bad line or invalid message. */
  async begin(options: { protocol?: ProtocolVersion; strict: boolean; session: string }): Promise<Ingest> {
    const id = this.nextId++;
    await this.thread.run({ op: 'begin', id, ...options }, { crashError });
    return new Ingest(this.thread, id);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}

class Ingest {
  constructor(
    private readonly thread: TaskThread<IngestRequest, unknown>,
    private readonly id: number,
  ) {}

  /** Lines of a streamed body (those over the line limit by number only), lifted. */
  lines(lines: StreamedLine[]): Promise<LiftedChunk> {
    return this.thread.run({ op: 'lines', id: this.id, lines }, { crashError }) as Promise<LiftedChunk>;
  }

  /** A body read whole (a message, a batch, JSONL; bytes are checked to be UTF-8 there), lifted by `next`. */
  async body(text: string | Uint8Array): Promise<void> {
    await this.thread.run({ op: 'body', id: this.id, text }, { crashError });
  }

  /** The next `messages` messages of the body, lifted; `done` once none is left. */
  next(messages: number): Promise<LiftedChunk> {
    return this.thread.run({ op: 'next', id: this.id, messages }, { crashError }) as Promise<LiftedChunk>;
  }

  /** Ends the ingest: what it lifted in all, failed lines with their errors. */
  async end(): Promise<{ summary: ConversionSummary; sessions: string[]; usedSession: boolean }> {
    const { summary, sessions, usedSession } = (await this.thread.run(
      { op: 'end', id: this.id },
      { crashError },
    )) as IngestTally;
    const failed = summary.failed.map((f) => ({ ...f, error: new McpLdError(f.error) }));
    return { summary: { ...summary, failed }, sessions, usedSession };
  }

  /** Forgets an ingest that failed part way. */
  async abort(): Promise<void> {
    await this.thread.run({ op: 'abort', id: this.id }).catch(() => undefined);
  }
}

function crashError(reason: string): McpLdError {
  return McpLdError.of('ingest.lost', {
    detail: `the thread that lifts ingests failed (${reason}) and was restarted; send the body again`,
    retryAfter: 1,
  });
}
