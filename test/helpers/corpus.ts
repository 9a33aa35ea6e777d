// The corpus fixtures: the real captures (capture records) and the OGC examples (plain messages).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import type { CaptureRecord } from '../../src/lift/records.js';
import type { JsonObject } from '../../src/core/json.js';
import type { ProtocolVersion } from '../../src/schema/index.js';

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
  return captures.map(({ file }) => path.join(path.dirname(trafficFile), file));
}

export function ogcExamples(): { name: string; msg: JsonObject }[] {
  const dir = path.join(fixturesDir, 'ogc-examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => ({ name, msg: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as JsonObject }));
}

/** Every capture of the corpus (test/fixtures/traffic/traffic-*.jsonl), with the protocol version it speaks. */
export const captures: readonly { file: string; version: ProtocolVersion }[] = [
  { file: 'traffic-sdk1.0.4-memory-0.6.2.jsonl', version: '2024-11-05' },
  { file: 'traffic-sdk1.11.2-everything-2025.5.12-http.jsonl', version: '2025-03-26' },
  { file: 'traffic-everything.jsonl', version: '2025-11-25' },
  { file: 'traffic-v2client-legacy-field-notes-stdio.jsonl', version: '2025-11-25' },
  { file: 'traffic-v2-field-notes-http.jsonl', version: '2026-07-28' },
];

/** The records of one capture, by its file name. */
export function captureRecords(file: string): CaptureRecord[] {
  return trafficRecords(path.join(path.dirname(trafficFile), file));
}

/**
 * The official 2026-07-28 examples that are whole JSON-RPC messages (the others are only a params or result object).
 */
export function officialMessageExamples(): { name: string; msg: JsonObject }[] {
  const dir = path.join(fixturesDir, 'official-examples');
  return readdirSync(dir)
    .sort()
    .flatMap((definition) =>
      readdirSync(path.join(dir, definition))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((file) => ({
          name: `${definition}/${file}`,
          msg: JSON.parse(readFileSync(path.join(dir, definition, file), 'utf8')) as JsonObject,
        })),
    )
    .filter(({ msg }) => msg['jsonrpc'] === '2.0');
}
