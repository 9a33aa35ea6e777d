// The delivery queue's contract with a sink that goes down and comes back, or refuses a batch. The sink here is a
// stand-in that fails on command: what is tested is the queue's spooling, ordering and quarantine, not a database
// (the tap tests use real stores and a real service).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BatchFailed,
  BatchRefused,
  DeliveryQueue,
  quarantineFileFor,
  type DeliverySink,
} from '../../src/tap/delivery.js';

class SwitchableSink implements DeliverySink {
  up = true;
  received: string[] = [];
  /** Batches it refuses as bad input, and batches it fails on every time (an internal error). */
  refuses = new Set<string>();
  failsOn = new Set<string>();
  attempts = new Map<string, number>();
  async ingest(nquads: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 2));
    this.attempts.set(nquads, (this.attempts.get(nquads) ?? 0) + 1);
    if (!this.up) throw new Error('connection refused');
    if (this.refuses.has(nquads)) throw new BatchRefused(`refused ${nquads.trim()} (400)`);
    if (this.failsOn.has(nquads)) throw new BatchFailed(`failed on ${nquads.trim()} (500)`);
    this.received.push(nquads);
  }
}

const events = () => {
  const seen: string[] = [];
  return {
    seen,
    handlers: {
      down: () => seen.push('down'),
      up: () => seen.push('up'),
      quarantined: (reason: string) => seen.push(`quarantined: ${reason}`),
    },
  };
};

const quarantineOf = (spool: string) =>
  readFileSync(quarantineFileFor(spool), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { nquads: string; reason: string; at: string });

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
    const queue = new DeliveryQueue(sink, spool, handlers, { maxRetryDelay: 50 });
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
    const first = new DeliveryQueue(down, spool, events().handlers, { maxRetryDelay: 20 });
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

  it('stops waiting at the deadline for a sink that never answers, and retries nothing after it', async () => {
    const spool = path.join(dir, 'hung.jsonl');
    let calls = 0;
    const silent: DeliverySink = { ingest: () => (calls++, new Promise<never>(() => {})) };
    const queue = new DeliveryQueue(silent, spool, events().handlers, { maxRetryDelay: 20 });
    queue.add('batch 1\n');
    const started = performance.now();
    assert.equal(await queue.flush(150), 1);
    assert.ok(performance.now() - started < 1_000, 'flush returned by its deadline');
    assert.equal(readFileSync(spool, 'utf8').trim().split('\n').length, 1, 'the batch is in the spool');
    queue.add('batch 2\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(calls, 1, 'nothing is sent after flush');
    assert.equal(readFileSync(spool, 'utf8').trim().split('\n').length, 2, 'a batch added after flush is spooled');
  });

  it('sets a refused batch aside at once, says so, and delivers the ones behind it', async () => {
    const sink = new SwitchableSink();
    sink.refuses.add('batch 2\n');
    const spool = path.join(dir, 'd.spool.jsonl');
    const { seen, handlers } = events();
    const queue = new DeliveryQueue(sink, spool, handlers);
    for (const n of [1, 2, 3]) queue.add(`batch ${n}\n`);
    assert.equal(await queue.flush(5_000), 0);
    assert.deepEqual(sink.received, ['batch 1\n', 'batch 3\n']);
    assert.equal(sink.attempts.get('batch 2\n'), 1, 'a refusal is not retried');
    assert.deepEqual(seen, ['quarantined: refused batch 2 (400)']);
    assert.equal(quarantineFileFor(spool), path.join(dir, 'd.rejected.jsonl'));
    const [set] = quarantineOf(spool);
    assert.equal(set!.nquads, 'batch 2\n');
    assert.equal(set!.reason, 'refused batch 2 (400)');
    assert.equal(queue.quarantined, 1);
  });

  it('retries a batch the sink keeps failing on a few times, then sets it aside: the spool never jams', async () => {
    // What an earlier run spooled, the poisoned batch first (as a service answering 500 to it left it).
    const spool = path.join(dir, 'e.spool.jsonl');
    writeFileSync(spool, ['poison\n', 'batch 1\n'].map((nquads) => JSON.stringify({ nquads }) + '\n').join(''));
    const sink = new SwitchableSink();
    sink.failsOn.add('poison\n');
    const { seen, handlers } = events();
    const queue = new DeliveryQueue(sink, spool, handlers, { maxRetryDelay: 20, maxFailures: 3 });
    queue.add('batch 2\n');
    assert.equal(await queue.flush(5_000), 0);
    assert.deepEqual(sink.received, ['batch 1\n', 'batch 2\n']);
    assert.equal(sink.attempts.get('poison\n'), 3);
    assert.deepEqual(seen, ['down', 'quarantined: failed on poison (500) (3 attempts)', 'up']);
    assert.deepEqual(
      quarantineOf(spool).map((q) => q.nquads),
      ['poison\n'],
    );
    assert.ok(!existsSync(spool), 'nothing is left in the spool');
  });

  it('a quarantined batch moved back into the spool is sent by the next run', async () => {
    const spool = path.join(dir, 'f.spool.jsonl');
    const sink = new SwitchableSink();
    sink.refuses.add('batch 1\n');
    const first = new DeliveryQueue(sink, spool, events().handlers);
    first.add('batch 1\n');
    assert.equal(await first.flush(5_000), 0);
    writeFileSync(spool, readFileSync(quarantineFileFor(spool)));
    const fixed = new SwitchableSink();
    const second = new DeliveryQueue(fixed, spool, events().handlers);
    assert.equal(second.pending, 1);
    assert.equal(await second.flush(5_000), 0);
    assert.deepEqual(fixed.received, ['batch 1\n']);
  });
});
