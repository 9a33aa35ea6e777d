// The cost of sharing a data directory (src/store/store-owner.ts): the same durable ingest and the same queries, in
// the process that owns the store and through its owner's Unix socket from another process's client, in one run
// (each way twice, alternately; the better run of each is printed).
// Usage: node dist/bench/owner.js [--messages N]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedStore } from '../src/store/embedded-store.js';
import { OwnerClient } from '../src/store/owner-client.js';
import { startOwnerProcess } from '../src/store/owner-process.js';
import type { QuadStore } from '../src/store/quad-store.js';
import { figureLine } from './figures.js';
import { buildWorkload, liftBatches, type NQuadsBatch } from './store-workload.js';

async function ingestAll(store: QuadStore, batches: NQuadsBatch[]): Promise<number> {
  const started = performance.now();
  for (const batch of batches) await store.ingest(batch.nquads);
  return (performance.now() - started) / 1000;
}

async function queryMs(store: QuadStore, sparql: string, times: number): Promise<number> {
  await store.query(sparql);
  const started = performance.now();
  for (let i = 0; i < times; i++) await store.query(sparql);
  return (performance.now() - started) / times;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { messages: { type: 'string', default: '20000' } } });
  const work = mkdtempSync(path.join(os.tmpdir(), 'mcp-ld-bench-owner-'));
  process.env['MCPLD_OWNER_IDLE_MS'] = '2000'; // the background owner started below goes soon after
  try {
    const workload = buildWorkload(Number(values.messages));
    // Batches of 100 messages, as a tap sends them (every 100 ms, or 512 KiB).
    const batches = liftBatches(workload.text, 100);
    const quads = batches.reduce((sum, b) => sum + b.quads, 0);
    const small = 'ASK { ?s a <http://modelcontextprotocol.io/ontology#CallToolRequest> }';
    const rows = 'SELECT ?m ?t WHERE { ?m <https://w3id.org/mcp-ld/ns#timestamp> ?t } LIMIT 10000';

    // Each way twice, alternately (the machine warms up, and other work comes and goes): the better run of each.
    const best = {
      own: { seconds: Infinity, ask: Infinity, rows: Infinity },
      client: { seconds: Infinity, ask: Infinity, rows: Infinity },
    };
    const measure = async (way: 'own' | 'client', store: QuadStore) => {
      const seconds = await ingestAll(store, batches);
      const ask = await queryMs(store, small, 200);
      const selected = await queryMs(store, rows, 10);
      await store.close();
      best[way] = {
        seconds: Math.min(best[way].seconds, seconds),
        ask: Math.min(best[way].ask, ask),
        rows: Math.min(best[way].rows, selected),
      };
    };
    for (const round of [1, 2]) {
      await measure('own', await EmbeddedStore.open({ dataDir: path.join(work, `in-process-${round}`) }));
      await measure(
        'client',
        await OwnerClient.connect(path.join(work, `shared-${round}`), {
          startOwner: startOwnerProcess,
          waitMs: 60_000,
        }),
      );
    }
    const { own, client } = best;
    console.log(
      `workload: ${workload.messages} messages, ${quads} quads, ${batches.length} batches of 100 messages, durable`,
    );
    const rate = (seconds: number) => workload.messages / seconds;
    console.log(
      figureLine(
        { name: 'ingest through the owner socket (another process)', value: rate(client.seconds), unit: 'messages/s' },
        { name: 'EmbeddedStore.ingest in the owning process', value: rate(own.seconds), unit: 'messages/s' },
        'higher',
      ),
    );
    console.log(
      figureLine(
        { name: 'ASK through the owner socket', value: client.ask, unit: 'ms' },
        { name: 'in the owning process', value: own.ask, unit: 'ms' },
        'lower',
      ),
    );
    console.log(
      figureLine(
        { name: 'SELECT of 10,000 rows through the owner socket', value: client.rows, unit: 'ms' },
        { name: 'in the owning process', value: own.rows, unit: 'ms' },
        'lower',
      ),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
