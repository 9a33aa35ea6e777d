// The data directory's lock across hosts: a heartbeat proves the owner alive, a lock that stopped beating is taken over
// wherever it came from, and an owner that lost its lock stops writing.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataLock, lockFileName } from '../../src/store/data-lock.js';
import { McpLdError } from '../../src/core/problem.js';
import { rejectedError } from '../helpers/mcp-ld-error.js';

const foreign = { pid: 1, host: '3f2a9c1b7d4e', since: '2026-11-30T08:00:00.000Z' };

describe('store/data-lock', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mld-lock-'));
    file = path.join(dir, lockFileName);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const locked = (promise: Promise<unknown>) => rejectedError(promise, { code: 'store.locked', status: 423 });

  it('refuses a lock from another host that is still renewed, saying when it would be taken over', async () => {
    writeFileSync(file, JSON.stringify(foreign));
    const error = await locked(DataLock.acquire(dir));
    assert.match(
      error.message,
      /in use by process 1 on host 3f2a9c1b7d4e, since 2026-11-30T08:00:00.000Z \(lock renewed 0 s ago\)/,
    );
    assert.match(error.message, /taken over once it has gone 60 s without renewal/);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), foreign, 'the live lock is left as it was');
  });

  it('takes over a lock from another host whose heartbeat stopped (a crashed container on the same volume)', async () => {
    writeFileSync(file, JSON.stringify(foreign));
    const minuteAndHalfAgo = new Date(Date.now() - 90_000);
    utimesSync(file, minuteAndHalfAgo, minuteAndHalfAgo);
    const lock = await DataLock.acquire(dir);
    try {
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).pid, process.pid);
      lock.assertHeld();
    } finally {
      await lock.release();
    }
  });

  it('renews its own lock while it holds it', async () => {
    const lock = await DataLock.acquire(dir, { heartbeatMs: 20, staleAfterMs: 1_000 });
    try {
      const past = new Date(Date.now() - 30_000);
      utimesSync(file, past, past);
      await sleep(120);
      assert.ok(Date.now() - statSync(file).mtimeMs < 5_000, 'the heartbeat renewed the lock');
    } finally {
      await lock.release();
    }
  });

  it('an owner whose lock was taken over stops writing, and its release leaves the new owner’s lock alone', async () => {
    const lock = await DataLock.acquire(dir, { heartbeatMs: 20, staleAfterMs: 1_000 });
    writeFileSync(file, JSON.stringify(foreign)); // what a host that took the lock over wrote
    await sleep(120);
    assert.throws(
      () => lock.assertHeld(),
      (error: unknown) =>
        error instanceof McpLdError &&
        error.code === 'store.locked' &&
        /taken over by process 1 on 3f2a9c1b7d4e/.test(error.message),
    );
    await lock.release();
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), foreign);
  });
});
