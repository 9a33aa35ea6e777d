// The delivery queue's contract with a sink that goes down and comes back. The sink here is a stand-in that fails
// on command: what is tested is the queue's spooling and ordering, not a database (the tap tests use real stores).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeliveryQueue, type DeliverySink } from '../../src/tap/delivery.js';

class SwitchableSink implements DeliverySink {
  up = true;
  received: string[] = [];
  async ingest(nquads: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 2));
    if (!this.up) throw new Error('connection refused');
    this.received.push(nquads);
  }
}

const events = () => {
  const seen: string[] = [];
  return { seen, handlers: { down: () => seen.push('down'), up: () => seen.push('up') } };
};

describe('tap: delivery to a store that goes down and comes back', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-delivery-'));

  it('delivers batches in order while the sink is up', async () => {
    const sink = new SwitchableSink();
    const queue = new DeliveryQueue(sink, path.join(dir, 'a.jsonl'), events().handlers);
    for (const n of [1, 2, 3]) queue.add(`batch ${n}\n`);
    assert.equal(await queue.flush(5_000), 0);
    assert.deepEqual(sink.received, ['batch 1\n', 'batch 2\n', 'batch 3\n']);
  });

  it('spools to disk while the sink is down, says so, and delivers everything in order once it is back', async () => {
    const sink = new SwitchableSink();
    const spool = path.join(dir, 'b.jsonl');
    const { seen, handlers } = events();
    const queue = new DeliveryQueue(sink, spool, handlers, 50);
    sink.up = false;
    for (const n of [1, 2, 3]) queue.add(`batch ${n}\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(seen, ['down']);
    assert.ok(existsSync(spool), 'the spool file exists while the sink is down');
    assert.equal(readFileSync(spool, 'utf8').trim().split('\n').length, 3);
    queue.add('batch 4\n');
    sink.up = true;
    assert.equal(await queue.flush(5_000), 0);
    assert.deepEqual(sink.received, ['batch 1\n', 'batch 2\n', 'batch 3\n', 'batch 4\n']);
    assert.deepEqual(seen, ['down', 'up']);
    assert.ok(!existsSync(spool), 'an empty spool is removed');
  });

  it('keeps what it could not deliver by the deadline in the spool, and the next queue on that spool sends it first', async () => {
    const spool = path.join(dir, 'c.jsonl');
    const down = new SwitchableSink();
    down.up = false;
    const first = new DeliveryQueue(down, spool, events().handlers, 20);
    first.add('batch 1\n');
    first.add('batch 2\n');
    assert.equal(await first.flush(150), 2);
    const later = new SwitchableSink();
    const second = new DeliveryQueue(later, spool, events().handlers);
    assert.equal(second.pending, 2);
    second.add('batch 3\n');
    assert.equal(await second.flush(5_000), 0);
    assert.deepEqual(later.received, ['batch 1\n', 'batch 2\n', 'batch 3\n']);
  });
});
