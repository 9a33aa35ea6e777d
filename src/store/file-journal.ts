// The durable journal of a data directory: `snapshot.mld` (the graphs as chunks of N-Quads, written to a temporary
// file,
// fsynced and renamed into place) and `journal.mld` (the writes since — batches, dropped graphs, SPARQL Updates —
// appended and fsynced one frame each before a write is acknowledged). On open a torn last frame (a crash mid-append)
// is cut off; damage anywhere else is an error. A read-only open writes neither file: it ignores a torn last frame.
import path from 'node:path';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { DataLock, type LockRole } from './data-lock.js';
import { encodeFrameHeader, type FrameType } from './frames.js';
import { frameEnd, nextWholeFrame, readFrames, writeWhole, type FrameProblem } from './frame-file.js';
import { describeRegion, sessionsOf, surveyJournal, type SurveyedFrame } from './journal-survey.js';
import { listSessions } from './journal-sessions.js';
import { entryPayload, type Journal, type JournalEntry, type JournalSink, type SnapshotWriter } from './journal.js';
import { diskFull, isDiskFull, storeCorrupt, storeReadOnly } from './store-errors.js';
import type { McpLdError } from '../core/problem.js';

export const snapshotFileName = 'snapshot.mld';
export const journalFileName = 'journal.mld';
const snapshotFormat = 1;

interface FileJournalOptions {
  /** Told about a torn last write that was cut off (or, read-only, ignored). */
  onWarning?: (message: string) => void;
  /** Reads only: the journal and the snapshot are never written, and every write is refused (store.read-only). */
  readOnly?: boolean;
  /** The directory's lock, already taken by the caller (store-owner.ts names its socket in it); released on close. */
  lock?: DataLock;
}

/** What a torn last write was, as far as its bytes tell: "write 12 of session urn:…, 95 bytes". */
function tornWrite(tail: { seq?: number; graphs: string[] }, bytes: number): string {
  const sessions =
    tail.graphs.length > 0 ? ` of session${tail.graphs.length === 1 ? '' : 's'} ${listSessions(tail.graphs)}` : '';
  if (tail.seq !== undefined)
    return `write ${tail.seq}${sessions}, ${bytes} bytes${sessions ? '' : ', which do not tell its sessions'}`;
  return sessions
    ? `a write${sessions}, ${bytes} bytes`
    : `${bytes} bytes, which do not tell which write or sessions it was`;
}

/**
 * The lock of a data directory. On a full disk the lock file cannot be written: a writer then fails (507), while a
 * read-only open reads without the lock — safe enough, as no other process can take the lock (or write) either until
 * space is freed, and a read-only open never writes.
 */
export async function takeLock(
  location: string,
  readOnly: boolean,
  onWarning: ((message: string) => void) | undefined,
  role: LockRole = {},
): Promise<DataLock | undefined> {
  try {
    // A reader says so in the lock: a writer that finds it waits for it to finish rather than for a socket.
    return await DataLock.acquire(location, undefined, readOnly ? { readOnly: true } : role);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    if (!readOnly)
      throw diskFull(location, error.code!, 'it cannot be opened for writing (there is no room for its lock file)');
    onWarning?.(`the disk of ${location} is full (${error.code}): read without taking its lock`);
    return undefined;
  }
}

/** Makes a rename in `dir` durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export class FileJournal implements Journal {
  readonly durable = true;
  readonly keepsEntries = false;
  lastSeq = 0;
  snapshotBytes = 0;
  private snapshotSeq = 0;
  private end = 0;
  private lastAppend: { seq: number; offset: number } | undefined;

  private constructor(
    readonly location: string,
    /** Absent only for a read-only open on a full disk (see `takeLock`). */
    private readonly lock: DataLock | undefined,
    private readonly journal: FileHandle,
    readonly readOnly: boolean,
  ) {}

  get logBytes(): number {
    return this.end;
  }

  /**
   * Opens (creating) a data directory: takes its lock, checks the journal and cuts off a torn last frame — or,
   * read-only,
   * leaves it where it is and reads around it.
   */
  static async open(dir: string, options: FileJournalOptions = {}): Promise<FileJournal> {
    const location = path.resolve(dir);
    const readOnly = options.readOnly === true;
    await mkdir(location, { recursive: true });
    const lock = options.lock ?? (await takeLock(location, readOnly, options.onWarning));
    let handle: FileHandle | undefined;
    try {
      if (!readOnly) await rm(path.join(location, `${snapshotFileName}.tmp`), { force: true });
      handle = await open(
        path.join(location, journalFileName),
        (readOnly ? constants.O_RDONLY : constants.O_RDWR) | constants.O_CREAT,
      );
      const journal = new FileJournal(location, lock, handle, readOnly);
      await journal.readSnapshotHeader();
      await journal.checkJournal(options.onWarning ?? (() => {}));
      return journal;
    } catch (error) {
      await handle?.close();
      await lock?.release();
      throw error;
    }
  }

  private async readSnapshotHeader(): Promise<void> {
    const file = path.join(this.location, snapshotFileName);
    const size = await sizeOf(file);
    if (size === undefined) return;
    const handle = await open(file, 'r');
    try {
      const first = await readFrames(handle, 0, size).next();
      if (first.done || first.value.type !== 'header')
        throw storeCorrupt(`${file} does not start with a snapshot header`);
      const info = JSON.parse(first.value.payload.toString('utf8')) as { format?: number; seq?: number };
      if (info.format !== snapshotFormat || typeof info.seq !== 'number')
        throw storeCorrupt(`${file} has an unknown snapshot format`);
      this.snapshotSeq = info.seq;
      this.lastSeq = info.seq;
      this.snapshotBytes = size;
    } finally {
      await handle.close();
    }
  }

  private async checkJournal(onWarning: (message: string) => void): Promise<void> {
    const file = path.join(this.location, journalFileName);
    const size = (await this.journal.stat()).size;
    const frames = readFrames(this.journal, 0, size);
    let result = await frames.next();
    let end = 0;
    while (!result.done) {
      this.lastSeq = Math.max(this.lastSeq, result.value.seq);
      end = frameEnd(result.value);
      result = await frames.next();
    }
    const problem = result.value;
    if (problem) {
      // What looks like a torn tail (a length past the end, a bad last checksum) is corruption when a whole frame
      // follows it: those are acknowledged writes, and cutting the file there would drop them.
      const after = problem.torn ? await nextWholeFrame(this.journal, problem.offset + 1, size) : undefined;
      if (!problem.torn || after !== undefined) throw await this.damaged(file, size, problem, after);
      const tail = await describeRegion(this.journal, problem.offset, size);
      if (!this.readOnly) {
        await this.journal.truncate(problem.offset);
        await this.journal.datasync();
      }
      const done = this.readOnly ? 'left in the file, as this open only reads' : 'and was cut off';
      onWarning(
        `${file}: ignored an incomplete last write (${tornWrite(tail, size - problem.offset)}; ${problem.reason}): it had not been acknowledged, ${done}`,
      );
      end = problem.offset;
    }
    this.end = end;
  }

  /** The refusal to open a journal damaged before its end: where, and what can still be read before and after it. */
  private async damaged(
    file: string,
    size: number,
    problem: FrameProblem,
    after: { offset: number; seq: number } | undefined,
  ): Promise<McpLdError> {
    const survey = await surveyJournal(this.journal, size);
    const before = survey.frames.filter((frame) => frame.offset < problem.offset);
    const behind = survey.frames.filter((frame) => frame.offset > problem.offset);
    const region = survey.damaged.find((damage) => damage.offset === problem.offset);
    const named = region && region.graphs.length > 0 ? `; its bytes name ${listSessions(region.graphs)}` : '';
    const where = after
      ? `, and whole frames follow it (the next at byte ${after.offset}, write ${after.seq}): they were acknowledged, so nothing was cut`
      : ', before its end: nothing was cut';
    const writes = (frames: SurveyedFrame[]) =>
      `${frames.length} write${frames.length === 1 ? '' : 's'}${frames.length > 0 ? ` (sessions: ${listSessions(sessionsOf(frames))})` : ''}`;
    const more = survey.damaged.length > 1 ? ` (between ${survey.damaged.length - 1} more damaged regions)` : '';
    return storeCorrupt(
      `${file} is damaged at byte ${problem.offset} (${problem.reason}${named})${where}. ` +
        `It still reads ${writes(before)} before the damage, and ${writes(behind)} after it${more}. ` +
        `Run \`mcp-ld repair --data ${this.location}\` to keep every write that reads whole and copy the rest aside, or restore the file from a backup`,
    );
  }

  /** Refuses a write to a journal opened read-only, or whose lock another process took over. */
  private assertWritable(): void {
    if (this.readOnly || !this.lock) throw storeReadOnly(this.location);
    this.lock.assertHeld();
  }

  async append(entry: JournalEntry): Promise<void> {
    this.assertWritable();
    const encoded = entryPayload(entry);
    const header = encodeFrameHeader(entry.type, entry.seq, encoded);
    const offset = this.end;
    try {
      await writeWhole(this.journal, [header, encoded], offset);
      await this.journal.datasync();
    } catch (error) {
      // Leave no partial frame behind for the next append to follow.
      await this.journal.truncate(offset).catch(() => undefined);
      throw error;
    }
    this.end = offset + header.length + encoded.length;
    this.lastAppend = { seq: entry.seq, offset };
    this.lastSeq = Math.max(this.lastSeq, entry.seq);
  }

  async retract(seq: number): Promise<void> {
    this.assertWritable();
    if (!this.lastAppend || this.lastAppend.seq !== seq) return;
    await this.journal.truncate(this.lastAppend.offset);
    await this.journal.datasync();
    this.end = this.lastAppend.offset;
    this.lastAppend = undefined;
  }

  async replay(upTo: number, sink: JournalSink): Promise<void> {
    await this.replaySnapshot(sink);
    const frames = readFrames(this.journal, 0, this.end);
    let result = await frames.next();
    for (; !result.done; result = await frames.next()) {
      const { type, seq, payload } = result.value;
      if (seq <= this.snapshotSeq) continue;
      if (seq > upTo) break;
      if (type === 'quads' || type === 'update') await sink.entry({ type, seq, data: payload }, true);
      else if (type === 'drop') await sink.entry({ type, seq, graph: payload.toString('utf8') }, true);
      else
        throw storeCorrupt(
          `${path.join(this.location, journalFileName)} holds a ${type} frame at byte ${result.value.offset}`,
        );
    }
    if (result.done && result.value)
      throw storeCorrupt(
        `${path.join(this.location, journalFileName)} changed while it was read (${result.value.reason} at byte ${result.value.offset})`,
      );
  }

  private async replaySnapshot(sink: JournalSink): Promise<void> {
    const file = path.join(this.location, snapshotFileName);
    const size = await sizeOf(file);
    if (size === undefined) return;
    const handle = await open(file, 'r');
    try {
      const frames = readFrames(handle, 0, size);
      let ended = false;
      let result = await frames.next();
      for (; !result.done; result = await frames.next()) {
        const { type, payload } = result.value;
        if (type === 'header') {
          ended = (JSON.parse(payload.toString('utf8')) as { end?: boolean }).end === true;
          continue;
        }
        if (type !== 'quads' || ended)
          throw storeCorrupt(`${file} holds an unexpected ${type} frame at byte ${result.value.offset}`);
        await sink.chunk(payload, true);
      }
      if (result.value)
        throw storeCorrupt(`${file} is damaged at byte ${result.value.offset} (${result.value.reason})`);
      if (!ended) throw storeCorrupt(`${file} is incomplete (no end frame)`);
    } finally {
      await handle.close();
    }
  }

  async snapshot(seq: number): Promise<SnapshotWriter> {
    this.assertWritable();
    const tmp = path.join(this.location, `${snapshotFileName}.tmp`);
    const target = path.join(this.location, snapshotFileName);
    const handle = await open(tmp, 'w');
    let position = 0;
    let chunks = 0;
    const write = async (type: FrameType, ...parts: Uint8Array[]) => {
      const header = encodeFrameHeader(type, seq, ...parts);
      position += await writeWhole(handle, [header, ...parts], position);
    };
    let closed = false;
    const close = async () => {
      if (!closed) await handle.close();
      closed = true;
    };
    await write(
      'header',
      Buffer.from(JSON.stringify({ format: snapshotFormat, seq, created: new Date().toISOString() })),
    );
    return {
      add: async (nquads) => {
        await write('quads', nquads);
        chunks += 1;
      },
      commit: async () => {
        await write('header', Buffer.from(JSON.stringify({ end: true, chunks })));
        await handle.sync();
        await close();
        this.lock!.assertHeld(); // taken over while the snapshot was written: it is not ours to put in place
        await rename(tmp, target);
        await syncDirectory(this.location);
        this.snapshotSeq = seq;
        this.snapshotBytes = position;
        if (this.lastSeq <= seq) {
          // Every write in the journal is in the snapshot now. (A crash before this point replays the journal's writes
          // after the snapshot's sequence number only.)
          await this.journal.truncate(0);
          await this.journal.datasync();
          this.end = 0;
          this.lastAppend = undefined;
        }
      },
      abort: async () => {
        await close();
        await rm(tmp, { force: true });
      },
    };
  }

  async close(): Promise<void> {
    await this.journal.close();
    await this.lock?.release();
  }
}
