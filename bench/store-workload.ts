// The store benchmark's workload: the real capture (test/fixtures/traffic/traffic-everything.jsonl) repeated under
// fresh session ids, as JSONL capture records, and the same lifted into batches of N-Quads (untimed). Reads only the
// project's own fixture; times nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/core/paths.js';
import { loadSchema } from '../src/schema/index.js';
import { Lifter } from '../src/lift/lifter.js';
import { parseInput } from '../src/lift/input.js';

const captureFile = path.join(packageRoot, 'test', 'fixtures', 'traffic', 'traffic-everything.jsonl');

interface StoreWorkload {
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
