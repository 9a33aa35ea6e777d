// The corpus fixtures: the real captures (capture records) and the OGC examples (plain messages).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import type { JsonObject } from '../../src/core/json.js';

export const fixturesDir = path.join(packageRoot, 'test', 'fixtures');
export const trafficFile = path.join(fixturesDir, 'traffic', 'traffic-everything.jsonl');

export function trafficRecords(file: string = trafficFile): CaptureRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CaptureRecord);
}

/** Every real capture in test/fixtures/traffic/ (one session each, protocol 2024-11-05 to 2026-07-28), by file name. */
export function captureFiles(): string[] {
  const dir = path.dirname(trafficFile);
  return readdirSync(dir)
    .filter((f) => /^traffic-.*\.jsonl$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

export function ogcExamples(): { name: string; msg: JsonObject }[] {
  const dir = path.join(fixturesDir, 'ogc-examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => ({ name, msg: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as JsonObject }));
}
