// The graph each corpus capture lifts to, pinned: its quad count and the SHA-256 of its sorted N-Quads. A change to
// the lifter that changes any capture's graph must say so by pinning it again:
//   npm run build && node dist/test/pins/graph-pins.js --write
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { writeNQuads } from '../../src/rdf/serialize.js';
import { captureRecords, captures, fixturesDir } from '../helpers/corpus.js';

const pinsFile = path.join(fixturesDir, 'traffic', 'graphs.json');

interface GraphPin {
  quads: number;
  sha256: string;
}

/** The graph of one capture, as the fast engine lifts it with the package's schemas. */
function graphPin(file: string): GraphPin {
  const lifter = new Lifter(loadSchema());
  const lines = captureRecords(file)
    .flatMap((record) => writeNQuads(lifter.lift(record).quads).trim().split('\n'))
    .sort();
  return { quads: lines.length, sha256: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

export function currentPins(): Record<string, GraphPin> {
  return Object.fromEntries(captures.map(({ file }) => [file, graphPin(file)]));
}

export function pinnedGraphs(): Record<string, GraphPin> {
  return JSON.parse(readFileSync(pinsFile, 'utf8')) as Record<string, GraphPin>;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  writeFileSync(pinsFile, JSON.stringify(currentPins(), null, 2) + '\n');
  console.log(`pinned the graphs of ${captures.length} captures in ${pinsFile}`);
}
