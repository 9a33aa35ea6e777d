// Turns observed messages into capture records (seq, ts, dir, session, msg — non-JSON text as `raw`), writes them
// to the capture file, lifts each message in order with one session-aware Lifter, and hands N-Quads batches to the
// delivery queue. StdioObserver feeds it from relayed byte streams without ever holding up the relay: lines are
// queued as observed and recorded on a later tick.
import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import type { Direction } from '../schema/index.js';
import type { Lifter } from '../lift/lifter.js';
import { toRecord, type RawLineRecord } from '../lift/records.js';
import type { DeliveryQueue } from './delivery.js';
import { LineSplitter } from './line-splitter.js';

export interface RecorderCounts {
  messages: number;
  quads: number;
  nonJson: number;
  notMcp: number;
  /** Messages the recorder could not record for a reason of its own (a bug): relayed all the same. */
  unrecorded: number;
}

export interface Observed {
  dir: Direction;
  ts: string;
  session: string;
  text: string;
}

export class Recorder {
  readonly counts: RecorderCounts = { messages: 0, quads: 0, nonJson: 0, notMcp: 0, unrecorded: 0 };
  private seq = 0;
  private batch = '';
  private batchTimer: NodeJS.Timeout | undefined;
  private readonly capture: WriteStream | undefined;

  constructor(
    /** Lifts each message to N-Quads for a store; without one, the records themselves are delivered (a bridge). */
    private readonly lifter: Lifter | undefined,
    private readonly delivery: DeliveryQueue | undefined,
    private readonly captureFile: string | undefined,
    private readonly batchDelayMs = 100,
  ) {
    this.capture = captureFile ? createWriteStream(captureFile, { flags: 'a' }) : undefined;
  }

  /** Records a batch of observed texts (one JSON-RPC message each, or anything else) and schedules delivery. */
  recordAll(observed: Observed[]): void {
    for (const { dir, ts, session, text } of observed) {
      // The relay never depends on recording: whatever a message does to the recorder, the next one is recorded.
      try {
        this.record(dir, ts, session, text);
      } catch {
        this.counts.unrecorded += 1;
      }
    }
    if (this.batch.length > 512 * 1024) this.deliverBatch();
    else if (this.batch && !this.batchTimer) this.batchTimer = setTimeout(() => this.deliverBatch(), this.batchDelayMs);
  }

  private record(dir: Direction, ts: string, session: string, text: string): void {
    if (text.trim() === '') return;
    const seq = ++this.seq;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.counts.nonJson += 1;
      const raw: RawLineRecord = { seq, ts, dir, session, raw: text };
      this.write(raw);
      // Kept in the graph too (mld:RawLine), so that lowering gives the session back whole.
      if (!this.lifter) this.batch += JSON.stringify(raw) + '\n';
      else this.batch += this.lifter.liftToNQuads(raw).nquads;
      return;
    }
    const record = { seq, ts, dir, session, msg } as JsonObject;
    this.write(record);
    if (!this.lifter) {
      // A bridge: the service lifts; it gets the record as a line of NDJSON.
      this.counts.messages += 1;
      this.batch += JSON.stringify(record) + '\n';
      return;
    }
    try {
      if (!isJsonObject(msg)) throw new McpLdError({ code: 'input.not-mcp', status: 400, title: 'Not an MCP message', detail: 'not a JSON object' });
      const lifted = this.lifter.liftToNQuads(toRecord(record));
      this.counts.messages += 1;
      this.counts.quads += lifted.quadCount;
      this.batch += lifted.nquads;
    } catch (error) {
      if (!(error instanceof McpLdError)) throw error;
      this.counts.notMcp += 1;
    }
  }

  private write(record: object): void {
    this.capture?.write(JSON.stringify(record) + '\n');
  }

  private deliverBatch(): void {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (this.batch && this.delivery) this.delivery.add(this.batch);
    this.batch = '';
  }

  /** Delivers the last batch and closes the capture file (fsynced). */
  async finish(): Promise<void> {
    this.deliverBatch();
    if (this.capture) {
      await new Promise<void>((resolve, reject) => this.capture!.end((error?: Error | null) => (error ? reject(error) : resolve())));
      const handle = await open(this.captureFile!, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  }
}

/** Observes the two byte streams of a stdio relay: newline-delimited messages of one session. */
export class StdioObserver {
  private readonly splitters: Record<Direction, LineSplitter> = { c2s: new LineSplitter(), s2c: new LineSplitter() };
  private readonly observed: Observed[] = [];
  private scheduled = false;

  constructor(
    private readonly recorder: Recorder,
    readonly session: string,
  ) {}

  /** Called with every relayed chunk, as it passes: only notes the lines and their time. */
  observe(dir: Direction, chunk: Buffer): void {
    const ts = new Date().toISOString();
    for (const text of this.splitters[dir].push(chunk)) this.observed.push({ dir, ts, session: this.session, text });
    if (!this.scheduled && this.observed.length > 0) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.recorder.recordAll(this.observed.splice(0));
      });
    }
  }

  /** Records what is still pending, an unterminated last line too. */
  end(): void {
    for (const dir of ['c2s', 's2c'] as const) {
      const last = this.splitters[dir].end();
      if (last !== undefined) this.observed.push({ dir, ts: new Date().toISOString(), session: this.session, text: last });
    }
    this.recorder.recordAll(this.observed.splice(0));
  }
}
