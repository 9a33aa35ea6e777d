// Builds the converter benchmark's workload: the real capture (test/fixtures/traffic/traffic-everything.jsonl)
// and the 20 OGC example messages (test/fixtures/ogc-examples/), repeated with a fresh session id per repetition,
// as capture records in one JSONL file. Reads only the project's own fixtures.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/core/paths.js';

const trafficFixture = path.join(packageRoot, 'test', 'fixtures', 'traffic', 'traffic-everything.jsonl');
const ogcExamplesDir = path.join(packageRoot, 'test', 'fixtures', 'ogc-examples');

interface LiftWorkload {
  file: string;
  messages: number;
  repetitions: number;
  /** Messages per repetition: the capture's, then the OGC examples'. */
  traffic: number;
  ogcExamples: number;
  sessions: number;
}

type JsonRecord = Record<string, unknown>;

function trafficRecords(): JsonRecord[] {
  return readFileSync(trafficFixture, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JsonRecord);
}

/** The OGC examples in their numeric order (example_1_1, example_2_1, …, example_20_1). */
function ogcMessages(): JsonRecord[] {
  const number = (name: string) => name.match(/\d+/g)!.map(Number);
  const files = readdirSync(ogcExamplesDir)
    .filter((name) => name.endsWith('.json'))
    .sort((a, b) => {
      const [x, y] = [number(a), number(b)];
      return x[0]! - y[0]! || x[1]! - y[1]!;
    });
  return files.map((name) => JSON.parse(readFileSync(path.join(ogcExamplesDir, name), 'utf8')) as JsonRecord);
}

/** Writes at least `minMessages` messages (whole repetitions) to `dir`/workload.jsonl. */
export function buildLiftWorkload(dir: string, minMessages: number): LiftWorkload {
  const traffic = trafficRecords();
  const ogc = ogcMessages();
  const perRepetition = traffic.length + ogc.length;
  const repetitions = Math.ceil(minMessages / perRepetition);
  const lines: string[] = [];
  for (let r = 1; r <= repetitions; r++) {
    // Re-keyed sessions: every repetition is new traffic to the lifter (new graphs, ids, entities).
    for (const record of traffic)
      lines.push(JSON.stringify({ ...record, session: `bench-${r}-${String(record['session'])}` }));
    ogc.forEach((msg, i) => lines.push(JSON.stringify({ seq: i + 1, session: `bench-${r}-ogc-examples`, msg })));
  }
  const file = path.join(dir, 'workload.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const sessionsPerRepetition = new Set(traffic.map((record) => record['session'])).size + 1;
  return {
    file,
    messages: lines.length,
    repetitions,
    traffic: traffic.length,
    ogcExamples: ogc.length,
    sessions: repetitions * sessionsPerRepetition,
  };
}
