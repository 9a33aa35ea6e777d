// The store benchmark's workload: the real capture (test/fixtures/traffic/traffic-everything.jsonl) repeated under
// fresh session ids, as JSONL capture records, and the same lifted into batches of N-Quads (untimed). Reads only the
// project's own fixture; times nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/core/paths.js';
import { loadSchema } from '../src/schema/index.js';
import { Lifter } from '../src/lift/lifter.js';
import { parseInput } from '../src/lift/input.js';

export const captureFile = path.join(packageRoot, 'test', 'fixtures', 'traffic', 'traffic-everything.jsonl');

export interface StoreWorkload {
  text: string;
  messages: number;
  /** The session ids of the workload (the capture's, each with a `-<copy>` suffix). */
  sessions: string[];
}

export interface NQuadsBatch {
  nquads: string;
  messages: number;
  quads: number;
}

/** The capture repeated under fresh session ids (`<id>-<copy>`) until it has about `messages` messages. */
export function buildWorkload(messages: number): StoreWorkload {
  const capture = readFileSync(captureFile, 'utf8').trimEnd();
  const lines = capture.split('\n');
  const ids = [...new Set(lines.map((line) => (JSON.parse(line) as { session: string }).session))];
  const copies = Math.max(1, Math.round(messages / lines.length));
  const parts: string[] = [];
  const sessions: string[] = [];
  for (let i = 0; i < copies; i++) {
    let copy = capture;
    for (const session of ids) {
      copy = copy.replaceAll(session, `${session}-${i}`);
      sessions.push(`${session}-${i}`);
    }
    parts.push(copy);
  }
  return { text: parts.join('\n') + '\n', messages: copies * lines.length, sessions };
}

/**
 * One session of `messages` messages: the capture's records over and over, all in session `session` and numbered
 * 1, 2, 3… (`seq`), so that each is a message of its own (the lifter names a message by its session and number).
 */
export function buildSessionWorkload(messages: number, session: string): StoreWorkload {
  const records = readFileSync(captureFile, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const lines: string[] = [];
  for (let i = 0; i < messages; i++)
    lines.push(JSON.stringify({ ...records[i % records.length], seq: i + 1, session }));
  return { text: lines.join('\n') + '\n', messages, sessions: [session] };
}

/** Lifts the workload into batches of N-Quads of `perBatch` messages each. */
export function liftBatches(text: string, perBatch: number): NQuadsBatch[] {
  const lifter = new Lifter(loadSchema());
  const batches: NQuadsBatch[] = [];
  let parts: string[] = [];
  let quads = 0;
  for (const item of parseInput(text)) {
    if (!item.record) continue;
    const lifted = lifter.liftToNQuads(item.record);
    parts.push(lifted.nquads);
    quads += lifted.quadCount;
    if (parts.length === perBatch) {
      batches.push({ nquads: parts.join(''), messages: parts.length, quads });
      parts = [];
      quads = 0;
    }
  }
  if (parts.length > 0) batches.push({ nquads: parts.join(''), messages: parts.length, quads });
  return batches;
}
