// A process that ingests into an embedded store's data directory without end, printing `ack N` after each
// acknowledged batch N, for the crash test (it is killed with SIGKILL mid-way).
// Usage: node ingest-child.js DIR QUADS_PER_BATCH CONCURRENCY COMPACT_LOG_BYTES [repeat]
// With `repeat`, each batch is ingested twice before its ack: the journal fills with quads the store already has, so
// it gets compacted into snapshots on the way (and a kill can land in one).
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { crashBatch } from './crash-batch.js';

const [dir, perBatch = '500', concurrency = '1', compactLogBytes = String(512 * 1024 * 1024), repeat] =
  process.argv.slice(2);
if (!dir) throw new Error('usage: ingest-child.js DIR QUADS_PER_BATCH CONCURRENCY COMPACT_LOG_BYTES');

const store = await EmbeddedStore.open({ dataDir: dir, compactLogBytes: Number(compactLogBytes) });
process.stdout.write('ready\n');
let next = 0;
const loop = async () => {
  for (;;) {
    const n = next++;
    await store.ingest(crashBatch(n, Number(perBatch)));
    if (repeat === 'repeat') await store.ingest(crashBatch(n, Number(perBatch)));
    process.stdout.write(`ack ${n}\n`);
  }
};
await Promise.all(Array.from({ length: Number(concurrency) }, loop));
