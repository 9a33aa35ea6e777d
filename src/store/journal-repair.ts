// The repair of a damaged journal (`mcp-ld repair`): keeps every write that reads whole, in order (also those after the
// damage, found by their magic number and checked by their checksum), copies every byte it does not keep into
// `journal.damaged-<time>.mld` beside the journal, then puts a journal of the kept writes in place and checks that the
// data directory opens. Deletes nothing: the kept writes and the file set aside hold every byte of the old journal.
import path from 'node:path';
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { McpLdError } from '../core/problem.js';
import { FileJournal, journalFileName, syncDirectory, takeLock } from './file-journal.js';
import { writeWhole } from './frame-file.js';
import { addFrameGraphs, addNQuadsGraphs } from './journal-sessions.js';
import { sessionsOf, surveyJournal, type JournalSurvey, type SurveyedFrame } from './journal-survey.js';
import { diskFull, isDiskFull } from './store-errors.js';

/** Bytes of the old journal that the repaired one does not keep. */
interface SetAside {
  offset: number;
  bytes: number;
  reason: string;
  /** Sessions the bytes still name. */
  sessions: string[];
}

export interface RepairReport {
  journal: string;
  /** False when the journal read whole: nothing was changed. */
  repaired: boolean;
  kept: { writes: number; bytes: number };
  /** The file the set-aside bytes were copied into (when any were). */
  damagedFile?: string;
  setAside: SetAside[];
  /** The sessions of the data directory once repaired (snapshot and journal). */
  sessions: string[];
  /** Why the data directory still does not open (its snapshot is damaged, say), when it does not. */
  stillDamaged?: McpLdError;
}

/** The frames to keep: whole journal frames (a snapshot's header has no place there) in the order they were written. */
function framesToKeep(survey: JournalSurvey): { kept: SurveyedFrame[]; rejected: SetAside[] } {
  const kept: SurveyedFrame[] = [];
  const rejected: SetAside[] = [];
  let lastSeq = -1;
  for (const frame of survey.frames) {
    const reason =
      frame.type === 'header'
        ? 'a snapshot frame, not a write'
        : frame.seq <= lastSeq
          ? `write ${frame.seq} after write ${lastSeq}: out of order`
          : undefined;
    if (reason) {
      rejected.push({ offset: frame.offset, bytes: frame.bytes, reason, sessions: frame.graphs });
      continue;
    }
    kept.push(frame);
    lastSeq = frame.seq;
  }
  return { kept, rejected };
}

/** Copies `length` bytes at `offset` of `from` to `position` of `to`, a few megabytes at a time. */
async function copyBytes(
  from: FileHandle,
  offset: number,
  length: number,
  to: FileHandle,
  position: number,
): Promise<void> {
  const chunk = Buffer.allocUnsafe(Math.min(8 * 1024 * 1024, Math.max(length, 1)));
  for (let done = 0; done < length;) {
    const { bytesRead } = await from.read(chunk, 0, Math.min(chunk.length, length - done), offset + done);
    if (bytesRead === 0) throw new Error(`the journal ended at byte ${offset + done} while it was copied`);
    await writeWhole(to, [chunk.subarray(0, bytesRead)], position + done);
    done += bytesRead;
  }
}

/** Writes the given regions of `from`, one after the other, into a new file, fsynced; on failure, removes it. */
async function writeRegions(
  from: FileHandle,
  regions: { offset: number; bytes: number }[],
  file: string,
): Promise<void> {
  const to = await open(file, 'wx');
  try {
    let position = 0;
    for (const region of regions) {
      await copyBytes(from, region.offset, region.bytes, to, position);
      position += region.bytes;
    }
    await to.sync();
  } catch (error) {
    await to.close();
    await rm(file, { force: true });
    throw error;
  }
  await to.close();
}

/** Opens the data directory to read it whole (snapshot and journal), and says which sessions it holds. */
async function sessionsWhenOpened(location: string): Promise<string[]> {
  const journal = await FileJournal.open(location, { readOnly: true });
  const graphs = new Set<string>();
  try {
    await journal.replay(journal.lastSeq, {
      chunk: async (nquads) => addNQuadsGraphs(nquads, graphs),
      entry: async (entry) => {
        if (entry.type === 'drop') graphs.delete(entry.graph);
        else addFrameGraphs(entry.type, entry.data, graphs);
      },
    });
  } finally {
    await journal.close();
  }
  return [...graphs].sort();
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/**
 * Repairs the journal of the data directory `dir` (taking its lock: nothing else may have it open). A journal that
 * reads whole is left as it is. Throws McpLdError when the directory does not exist, is in use (423), or the disk is
 * full (507, the journal untouched); when it still does not open after the repair (a damaged snapshot), store.corrupt.
 */
export async function repairJournal(dir: string): Promise<RepairReport> {
  const location = path.resolve(dir);
  const journalFile = path.join(location, journalFileName);
  const found = await stat(location).catch(() => undefined);
  if (!found?.isDirectory()) throw McpLdError.of('store.not-found', { detail: `${location} is not a directory` });
  const report: RepairReport = {
    journal: journalFile,
    repaired: false,
    kept: { writes: 0, bytes: 0 },
    setAside: [],
    sessions: [],
  };
  const lock = (await takeLock(location, false, undefined))!;
  try {
    const handle = await open(journalFile, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (handle) {
      try {
        const survey = await surveyJournal(handle, (await handle.stat()).size);
        const { kept, rejected } = framesToKeep(survey);
        report.kept = { writes: kept.length, bytes: kept.reduce((sum, frame) => sum + frame.bytes, 0) };
        const damaged = survey.damaged.map((region) => ({
          offset: region.offset,
          bytes: region.end - region.offset,
          reason: region.reason,
          sessions: region.graphs,
        }));
        report.setAside = [...damaged, ...rejected].sort((a, b) => a.offset - b.offset);
        if (report.setAside.length > 0) await replaceJournal(handle, location, kept, report);
      } finally {
        await handle.close();
      }
    }
  } finally {
    await lock.release();
  }
  try {
    report.sessions = await sessionsWhenOpened(location);
  } catch (error) {
    if (!(error instanceof McpLdError)) throw error;
    report.stillDamaged = error;
  }
  return report;
}

/**
 * Copies the bytes set aside into a file of their own, then puts a journal of the kept frames in place of the old one.
 * Until that rename the old journal is in place, whole, and a failure removes the copies made so far; after it, the
 * file set aside is the only copy of its bytes and stays.
 */
async function replaceJournal(
  handle: FileHandle,
  location: string,
  kept: SurveyedFrame[],
  report: RepairReport,
): Promise<void> {
  const damagedFile = path.join(location, `journal.damaged-${timestamp()}.mld`);
  const repaired = path.join(location, `${journalFileName}.repaired`);
  let replaced = false;
  try {
    await writeRegions(handle, report.setAside, damagedFile);
    try {
      await rm(repaired, { force: true }); // left by a repair that was interrupted
      await writeRegions(handle, kept, repaired);
      await rename(repaired, report.journal);
      replaced = true;
      await syncDirectory(location);
    } catch (error) {
      if (!replaced) await rm(damagedFile, { force: true });
      throw error;
    }
  } catch (error) {
    if (!replaced && isDiskFull(error))
      throw diskFull(location, error.code!, 'the journal was not repaired and is as it was');
    throw error;
  }
  report.repaired = true;
  report.damagedFile = damagedFile;
}

/** The sessions named by the bytes set aside: those that may have lost writes. */
export function sessionsSetAside(report: RepairReport): Set<string> {
  return sessionsOf(report.setAside.map((part) => ({ graphs: part.sessions })));
}
