import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { lockFileName, readLockHolder } from '../../src/store/data-lock.js';
import { OwnerClient } from '../../src/store/owner-client.js';
import { startOwnerProcess } from '../../src/store/owner-process.js';
import { encodeOwnerMessage } from '../../src/store/owner-protocol.js';
import { openStore } from '../../src/store/open-store.js';
import { readStoreConfig } from '../../src/core/config.js';
import { McpLdError } from '../../src/core/problem.js';

const graph = (name: string) => `urn:mcp-ld:session/${name}`;
const batch = (name: string, i: number) => `<urn:x:item/${i}> <urn:x:n> "${i}" <${graph(name)}> .\n`;

async function count(store: { query(sparql: string): Promise<unknown> }, name: string): Promise<number> {
  const result = (await store.query(
    `SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { GRAPH <${graph(name)}> { ?s ?p ?o } }`,
  )) as { rows: Map<string, { value: string }>[] };
  return Number(result.rows[0]!.get('n')!.value);
}

const connect = (dir: string, waitMs = 60_000) => OwnerClient.connect(dir, { startOwner: startOwnerProcess, waitMs });

async function ownerPid(dir: string): Promise<number> {
  const holder = await readLockHolder(dir);
  assert.ok(holder?.live && holder.socket, `an owner holds ${dir}`);
  return holder.pid;
}

describe('store owner: one data directory, many processes', function () {
  this.timeout(120_000);
  let root: string;
  const saved = process.env['MCPLD_OWNER_IDLE_MS'];

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'mcp-ld-owner-'));
    process.env['MCPLD_OWNER_IDLE_MS'] = '1500'; // the background owners these tests start go away soon after
  });
  after(() => {
    if (saved === undefined) delete process.env['MCPLD_OWNER_IDLE_MS'];
    else process.env['MCPLD_OWNER_IDLE_MS'] = saved;
    rmSync(root, { recursive: true, force: true });
  });

  it('a client with no owner starts one in the background; a second client shares it; writes of each are seen by both', async () => {
    const dir = path.join(root, 'shared');
    const a = await connect(dir);
    const b = await connect(dir);
    try {
      const pid = await ownerPid(dir);
      assert.notEqual(pid, process.pid, 'the owner is a process of its own');
      await a.ingest(batch('a', 1));
      await b.ingest(batch('b', 1) + batch('b', 2));
      assert.equal(await count(b, 'a'), 1);
      assert.equal(await count(a, 'b'), 2);
      assert.deepEqual(
        (await a.graphs()).map((g) => g.graph),
        [graph('a'), graph('b')],
      );
      const status = await a.status();
      assert.equal(status.command, 'own');
      assert.equal(status.clients, 2);
      assert.equal(status.sessions, 2);
    } finally {
      await a.close();
      await b.close();
    }
    // Idle, the owner closes (compacting its journal) and releases the directory.
    const released = Date.now() + 20_000;
    while (existsSync(path.join(dir, lockFileName)) && Date.now() < released)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!existsSync(path.join(dir, lockFileName)), 'the idle owner released the directory');
    const reopened = await EmbeddedStore.open({ dataDir: dir, readOnly: true });
    try {
      assert.equal(await count(reopened, 'b'), 2);
    } finally {
      await reopened.close();
    }
  });

  it('kill -9 of the owner while two clients write loses no acknowledged batch: they take over and send again what had no answer', async () => {
    const dir = path.join(root, 'killed');
    const a = await connect(dir);
    const b = await connect(dir);
    const first = await ownerPid(dir);
    const write = async (client: OwnerClient, name: string) => {
      for (let i = 0; i < 60; i++) {
        await client.ingest(batch(name, i));
        if (name === 'a' && i === 15) process.kill(first, 'SIGKILL');
      }
    };
    try {
      await Promise.all([write(a, 'a'), write(b, 'b')]);
      const second = await ownerPid(dir);
      assert.notEqual(second, first, 'another owner took over');
      assert.equal(await count(a, 'a'), 60);
      assert.equal(await count(a, 'b'), 60);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('the process that opens a directory first owns it (serve, ingest) and serves the others; when it closes, they take over', async () => {
    const dir = path.join(root, 'held');
    const config = readStoreConfig({ data: dir }, { MCPLD_OWNER_IDLE_MS: '1500', MCPLD_OWNER_WAIT_MS: '60000' });
    const held = await openStore(config, { command: 'serve' });
    assert.equal((await readLockHolder(dir))?.pid, process.pid);
    const client = await connect(dir);
    try {
      await client.ingest(batch('c', 1));
      assert.equal(await count(held, 'c'), 1, "the owner's own store sees the client's write");
      assert.equal((await client.status()).command, 'serve');
      await held.close();
      await client.ingest(batch('c', 2));
      assert.notEqual(await ownerPid(dir), process.pid, 'a background owner took over');
      assert.equal(await count(client, 'c'), 2);
    } finally {
      await client.close();
    }
  });

  it('a writer waits while a query has the directory to itself (read only), then opens it', async () => {
    const dir = path.join(root, 'reading');
    mkdirSync(dir); // a query reads only a directory that exists
    const config = readStoreConfig({ data: dir }, { MCPLD_OWNER_WAIT_MS: '60000' });
    const reader = await openStore(config, { role: 'read' });
    assert.equal((await readLockHolder(dir))?.readOnly, true, 'the lock says it only reads');
    let opened = false;
    const writer = openStore(config, { command: 'ingest' }).then((store) => ((opened = true), store));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(opened, false, 'the writer waits');
    await reader.close();
    const store = await writer;
    try {
      await store.ingest(batch('w', 1));
      assert.equal(await count(store, 'w'), 1);
    } finally {
      await store.close();
    }
  });

  it('a lock left by a dead owner is taken over, and a socket that does not repeat the lock is never trusted', async () => {
    const stale = path.join(root, 'stale');
    const first = await connect(stale);
    await first.ingest(batch('s', 1));
    process.kill(await ownerPid(stale), 'SIGKILL');
    await first.close();
    const again = await connect(stale);
    try {
      assert.equal(await count(again, 's'), 1, 'what the dead owner acknowledged is there');
    } finally {
      await again.close();
    }

    // A lock naming a live process (this one) and a socket whose listener greets with another token.
    const forged = path.join(root, 'forged');
    const socket = path.join(forged, 'impostor.sock');
    mkdirSync(forged);
    writeFileSync(
      path.join(forged, lockFileName),
      JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), socket }),
    );
    const impostor = net.createServer((connection) =>
      connection.end(Buffer.concat(encodeOwnerMessage({ hello: 'someone else' }))),
    );
    await new Promise<void>((resolve) => impostor.listen(socket, resolve));
    try {
      await assert.rejects(
        connect(forged, 1000),
        (error: unknown) =>
          error instanceof McpLdError &&
          error.code === 'store.locked' &&
          /waited 1 s for process \d+ .* to answer/.test(error.detail),
      );
    } finally {
      impostor.close();
    }
  });

  it('a background owner that cannot open the directory says why to the process that started it', async () => {
    const dir = path.join(root, 'corrupt');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'snapshot.mld'), 'not a snapshot');
    await assert.rejects(
      connect(dir),
      (error: unknown) =>
        error instanceof McpLdError &&
        error.code === 'store.corrupt' &&
        /does not start with a snapshot header/.test(error.detail),
    );
    assert.match(readFileSync(path.join(dir, 'owner.log'), 'utf8'), /store\.corrupt/);
    assert.ok(!existsSync(path.join(dir, lockFileName)), 'and leaves no lock behind');
  });
});
