// A journal read end to end, past damage: its whole frames in file order (with the sessions each names) and the regions
// between them that cannot be read as frames (with the sessions their bytes still name). What a refusal to open says
// and what a repair keeps and sets aside both come from it. Reads only.
import type { FileHandle } from 'node:fs/promises';
import { decodeFrameHeader, frameHeaderBytes, type FrameType } from './frames.js';
import { frameEnd, nextWholeFrame, readFrames } from './frame-file.js';
import { addFrameGraphs, addNQuadsGraphs } from './journal-sessions.js';

export interface SurveyedFrame {
  offset: number;
  /** Header and payload. */
  bytes: number;
  type: FrameType;
  seq: number;
  graphs: string[];
}

interface DamagedRegion {
  offset: number;
  /** Where the next whole frame starts, or the end of the file. */
  end: number;
  reason: string;
  /** It ends the file and looks like a write cut off by a crash (no whole frame follows it). */
  torn: boolean;
  /** The write it was, when its header still reads. */
  seq?: number;
  /** Sessions the bytes of the region still name (statements that read whole). */
  graphs: string[];
}

export interface JournalSurvey {
  size: number;
  frames: SurveyedFrame[];
  damaged: DamagedRegion[];
}

/** The sessions named by the bytes from `start` to `end`, read a few megabytes at a time. */
async function graphsOfBytes(handle: FileHandle, start: number, end: number): Promise<string[]> {
  const graphs = new Set<string>();
  const chunk = Buffer.allocUnsafe(Math.min(8 * 1024 * 1024, Math.max(end - start, 1)));
  for (let at = start; at < end;) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - at), at);
    if (bytesRead === 0) break;
    addNQuadsGraphs(chunk.subarray(0, bytesRead), graphs);
    at += bytesRead;
  }
  return [...graphs];
}

/** The write a region starts with, when its header still decodes. */
async function seqAt(handle: FileHandle, offset: number, end: number): Promise<number | undefined> {
  if (end - offset < frameHeaderBytes) return undefined;
  const header = Buffer.alloc(frameHeaderBytes);
  await handle.read(header, 0, frameHeaderBytes, offset);
  const decoded = decodeFrameHeader(header);
  return decoded.ok ? decoded.seq : undefined;
}

/** The write a region of a journal starts with (when its header still reads) and the sessions its bytes name. */
export async function describeRegion(
  handle: FileHandle,
  offset: number,
  end: number,
): Promise<{ seq?: number; graphs: string[] }> {
  const seq = await seqAt(handle, offset, end);
  return { ...(seq !== undefined ? { seq } : {}), graphs: await graphsOfBytes(handle, offset, end) };
}

export async function surveyJournal(handle: FileHandle, size: number): Promise<JournalSurvey> {
  const survey: JournalSurvey = { size, frames: [], damaged: [] };
  for (let offset = 0; offset < size;) {
    const frames = readFrames(handle, offset, size);
    let result = await frames.next();
    for (; !result.done; result = await frames.next()) {
      const frame = result.value;
      const graphs = new Set<string>();
      addFrameGraphs(frame.type, frame.payload, graphs);
      survey.frames.push({
        offset: frame.offset,
        bytes: frameEnd(frame) - frame.offset,
        type: frame.type,
        seq: frame.seq,
        graphs: [...graphs],
      });
    }
    const problem = result.value;
    if (!problem) break;
    const next = await nextWholeFrame(handle, problem.offset + 1, size);
    const end = next?.offset ?? size;
    survey.damaged.push({
      offset: problem.offset,
      end,
      reason: problem.reason,
      torn: problem.torn && next === undefined,
      ...(await describeRegion(handle, problem.offset, end)),
    });
    offset = end;
  }
  return survey;
}

/** The distinct sessions of some frames or regions. */
export function sessionsOf(parts: { graphs: string[] }[]): Set<string> {
  const graphs = new Set<string>();
  for (const part of parts) for (const graph of part.graphs) graphs.add(graph);
  return graphs;
}
