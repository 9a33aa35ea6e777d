// Turns observed messages into capture records (seq, ts, dir, session, msg — as `raw` a line that is not JSON, or is
// JSON mcp-ld cannot keep exactly, and as base64 one that is not UTF-8), writes them to the capture file, lifts each
// message in order with one session-aware Lifter, and hands N-Quads batches to the delivery queue. StdioObserver feeds
// it from relayed byte streams without ever holding up the relay: lines are queued as observed and recorded later.
import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { JsonObject } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import type { Direction } from '../schema/index.js';
import type { Lifter } from '../lift/lifter.js';
import { toRecord, type HttpFacts, type RawLineRecord } from '../lift/records.js';
import { parseJsonText } from '../lift/input.js';
import { invalidUtf8Offset } from '../core/utf8.js';
import type { DeliveryQueue } from './delivery.js';
import { LineSplitter } from '../core/line-splitter.js';
import { isAnswer, serverInfoName } from './server-name.js';

export interface RecorderCounts {
  messages: number;
  quads: number;
  nonJson: number;
  /** Lines kept as raw lines although JSON (a key given twice, a number past a double, too deep) or not UTF-8. */
  keptRaw: number;
  notMcp: number;
  /** Messages the recorder could not record for a reason of its own (a bug): relayed all the same. */
  unrecorded: number;
}

export interface Observed {
  dir: Direction;
  ts: string;
  session: string;
  /** The wire bytes of one line or message. */
  bytes: Buffer;
  /** What the HTTP request that carried it said of it (the proxy's Mcp-Method and Mcp-Name headers). */
  http?: HttpFacts;
}

export class Recorder {
  readonly counts: RecorderCounts = { messages: 0, quads: 0, nonJson: 0, keptRaw: 0, notMcp: 0, unrecorded: 0 };
  private seq = 0;
  private batch = '';
  /** Records in the batch, and when its first one was observed. */
  private batchRecords = 0;
  private batchSince = '';
  private batchTimer: NodeJS.Timeout | undefined;
  /** Per session, once its server has answered: the name its records carry (undefined: its serverInfo names it). */
  private readonly serverNames = new Map<string, string | undefined>();
  private readonly capture: WriteStream | undefined;

  constructor(
    /** Lifts each message to N-Quads for a store; without one, the records themselves are delivered (a bridge). */
    private readonly lifter: Lifter | undefined,
    private readonly delivery: DeliveryQueue | undefined,
    private readonly captureFile: string | undefined,
    private readonly options: {
      batchDelayMs?: number;
      /** `--server NAME`: the server's name in every record. */
      server?: string;
      /** The name for a session whose server's first answer does not name it (what the tap ran, what the proxy
       *  forwards to): in every record from that answer on. */
      fallbackServer?: string;
    } = {},
  ) {
    this.capture = captureFile ? createWriteStream(captureFile, { flags: 'a' }) : undefined;
  }

  /** Records a batch of observed texts (one JSON-RPC message each, or anything else) and schedules delivery. */
  recordAll(observed: Observed[]): void {
    for (const { dir, ts, session, bytes, http } of observed) {
      // The relay never depends on recording: whatever a message does to the recorder, the next one is recorded.
      try {
        this.record(dir, ts, session, bytes, http);
      } catch {
        this.counts.unrecorded += 1;
      }
    }
    if (this.batch.length > 512 * 1024) this.deliverBatch();
    else if (this.batch && !this.batchTimer)
      this.batchTimer = setTimeout(() => this.deliverBatch(), this.options.batchDelayMs ?? 100);
  }

  private record(dir: Direction, ts: string, session: string, bytes: Buffer, http: HttpFacts | undefined): void {
    const text = invalidUtf8Offset(bytes) < 0 ? bytes.toString('utf8') : undefined;
    if (text?.trim() === '') return;
    const seq = ++this.seq;
    const named = this.options.server ?? this.serverNames.get(session);
    const server = named !== undefined ? { server: named } : {};
    const facts: { http?: HttpFacts } = http !== undefined ? { http } : {};
    if (text === undefined) {
      this.counts.keptRaw += 1;
      return this.recordRaw({
        seq,
        ts,
        dir,
        ...server,
        session,
        ...facts,
        raw: bytes.toString('base64'),
        encoding: 'base64',
      });
    }
    let msg: unknown;
    try {
      msg = parseJsonText(text);
    } catch (error) {
      if (!(error instanceof McpLdError)) throw error;
      if (error.code === 'input.malformed-json') this.counts.nonJson += 1;
      else this.counts.keptRaw += 1;
      return this.recordRaw({ seq, ts, dir, ...server, session, ...facts, raw: text });
    }
    if (dir === 's2c' && named === undefined) Object.assign(server, this.nameAtFirstAnswer(session, msg));
    const record = { seq, ts, dir, ...server, session, ...facts, msg } as unknown as JsonObject;
    this.write(record);
    if (!this.lifter) {
      // A bridge: the service lifts; it gets the record as a line of NDJSON.
      this.counts.messages += 1;
      this.addToBatch(JSON.stringify(record) + '\n', ts);
      return;
    }
    try {
      if (!isJsonObject(msg)) throw McpLdError.of('input.not-mcp', { detail: 'not a JSON object' });
      const lifted = this.lifter.liftToNQuads(toRecord(record));
      this.counts.messages += 1;
      this.counts.quads += lifted.quadCount;
      this.addToBatch(lifted.nquads, ts);
    } catch (error) {
      if (!(error instanceof McpLdError)) throw error;
      this.counts.notMcp += 1;
    }
  }

  /** At the server's first answer: a serverInfo names the server (the lifter takes it from there); else the
   *  fallback name does, in this record and every later one of the session. */
  private nameAtFirstAnswer(session: string, msg: unknown): { server?: string } {
    const fallback = this.options.fallbackServer;
    if (fallback === undefined || this.serverNames.has(session) || !isJsonObject(msg) || !isAnswer(msg)) return {};
    const own = serverInfoName(msg);
    this.serverNames.set(session, own === undefined ? fallback : undefined);
    return own === undefined ? { server: fallback } : {};
  }

  /** A line kept as it is (text, or base64 bytes): in the capture and in the graph (mld:RawLine), so that lowering
   *  gives the session back whole. */
  private recordRaw(raw: RawLineRecord): void {
    this.write(raw);
    this.addToBatch(this.lifter ? this.lifter.liftToNQuads(raw).nquads : JSON.stringify(raw) + '\n', raw.ts);
  }

  /** One record's text (N-Quads, or a line of NDJSON for a bridge) joins the batch, which counts it and keeps the
   *  time of its first. */
  private addToBatch(text: string, ts: string | undefined): void {
    this.batch += text;
    if (this.batchRecords++ === 0) this.batchSince = ts ?? new Date().toISOString();
  }

  private write(record: object): void {
    this.capture?.write(JSON.stringify(record) + '\n');
  }

  private deliverBatch(): void {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (this.batch && this.delivery) this.delivery.add(this.batch, this.batchRecords, this.batchSince);
    this.batch = '';
    this.batchRecords = 0;
  }

  /** Delivers the last batch and closes the capture file (fsynced). */
  async finish(): Promise<void> {
    this.deliverBatch();
    if (this.capture) {
      await new Promise<void>((resolve, reject) =>
        this.capture!.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
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
    for (const line of this.splitters[dir].push(chunk))
      this.observed.push({ dir, ts, session: this.session, bytes: line.bytes });
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
      if (last !== undefined)
        this.observed.push({ dir, ts: new Date().toISOString(), session: this.session, bytes: last.bytes });
    }
    this.recorder.recordAll(this.observed.splice(0));
  }
}
