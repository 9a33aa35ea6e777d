// The embedded store on a disk that fills up (a real 2 MiB tmpfs), as the service and the CLI meet it: 507 naming the
// data directory, nothing half-written, the service serving on; `mcp-ld ingest` says so in one line, `mcp-ld query`
// (which writes nothing) answers.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fillUp, mountTmpfsOrSkip, unmountTmpfs } from '../helpers/tmpfs.js';
import { startService, type Service } from '../helpers/service.js';
import { runCli } from '../helpers/run-cli.js';
import { captureFiles, trafficFile } from '../helpers/corpus.js';
import { ownerSocketName } from '../../src/store/store-owner.js';
import { journalFileName } from '../../src/store/file-journal.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';

const ndjson = { 'content-type': 'application/x-ndjson' };
const countSessions = 'SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a mld:Session }';

describe('store: a full disk', function () {
  this.timeout(120_000);
  let mount: string | undefined;
  let data: string;
  let service: Service | undefined;
  // About 1.6 MB of journal: most of the 2 MiB disk. The second capture (about 0.6 MB) no longer fits.
  const first = trafficFile;
  const second = captureFiles().find((file) => file.endsWith('traffic-sdk1.11.2-everything-2025.5.12-http.jsonl'))!;

  /** Stops the service (SIGTERM) and resolves with its exit code. */
  const stopService = async () => {
    if (!service) return undefined;
    const child = service.child;
    service = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    return exited;
  };

  before(async function () {
    mount = mountTmpfsOrSkip(this, '2m');
    data = path.join(mount, 'data');
    mkdirSync(data);
    const ingested = await runCli(['ingest', first, '--data', data, '--quiet']);
    assert.equal(ingested.code, 0, ingested.stderr);
  });
  after(async () => {
    await stopService();
    if (mount) unmountTmpfs(mount);
  });

  const journalBytes = () => readFileSync(path.join(data, journalFileName));
  const sessions = async (url: string) => {
    const response = await fetch(`${url}/sparql?query=${encodeURIComponent(countSessions)}`, {
      headers: { accept: 'text/csv' },
    });
    assert.equal(response.status, 200);
    return (await response.text()).replace(/\r/g, '');
  };

  it('the service answers 507 problem+json naming the data directory, stores nothing of the write, and keeps serving', async () => {
    service = await startService(['--data', data]);
    const before = journalBytes();

    const full = await fetch(`${service.url}/ingest`, { method: 'POST', headers: ndjson, body: readFileSync(second) });
    assert.equal(full.status, 507);
    assert.match(full.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = (await full.json()) as { title: string; detail: string; code: string };
    assert.equal(problem.code, 'store.disk-full');
    assert.equal(problem.title, 'Insufficient storage');
    assert.equal(
      problem.detail,
      `the disk of the data directory ${data} is full (ENOSPC): nothing of this write was stored; free space there, then try again`,
    );
    assert.ok(journalBytes().equals(before), 'nothing of the refused write is left in the journal');
    assert.deepEqual(
      readdirSync(data).filter((name) => name !== journalFileName && name !== 'LOCK' && name !== ownerSocketName),
      [],
      'nothing but the journal, the lock and the socket on which the service serves other processes',
    );

    // It keeps serving: reads, /health, and a write that fits.
    assert.equal(await sessions(service.url), 'n\n1\n');
    assert.equal((await fetch(`${service.url}/health`)).status, 200);
    const small = await fetch(`${service.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-ld-session': 'small' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    assert.equal(small.status, 200, await small.text());
    assert.equal(await sessions(service.url), 'n\n2\n');

    assert.equal(await stopService(), 0);
  });

  it('`mcp-ld ingest` says so in one line and exits 1, without a stack; `mcp-ld query` prints its results and exits 0', async () => {
    await stopService();
    const before = journalBytes();
    const counted = await runCli(['query', '-', '--data', data, '--format', 'tsv'], { input: countSessions });
    assert.match(counted.stdout, /^\?n\n\d+\n$/);
    const notRoom = await runCli(['ingest', second, '--data', data, '--quiet']);
    assert.equal(notRoom.code, 1);
    assert.equal(
      notRoom.stderr.split('\n').filter((line) => line.includes('Insufficient storage')).length,
      1,
      notRoom.stderr,
    );
    assert.ok(notRoom.stderr.includes(`the disk of the data directory ${data} is full (ENOSPC)`), notRoom.stderr);
    assert.doesNotMatch(notRoom.stderr, /^\s+at /m);
    assert.ok(journalBytes().equals(before));

    const filler = path.join(mount!, 'filler');
    fillUp(filler); // not a byte left, not even for the lock file
    try {
      const noLock = await runCli(['ingest', second, '--data', data]);
      assert.equal(noLock.code, 1);
      assert.match(
        noLock.stderr,
        /^mcp-ld ingest: Insufficient storage: the disk of the data directory .* is full \(ENOSPC\): it cannot be opened for writing/m,
      );
      assert.doesNotMatch(noLock.stderr, /^\s+at /m);
      const query = await runCli(['query', '-', '--data', data, '--format', 'tsv'], { input: countSessions });
      assert.equal(query.code, 0, query.stderr);
      assert.equal(query.stdout, counted.stdout);
      assert.doesNotMatch(query.stderr, /^\s+at /m);
      assert.ok(journalBytes().equals(before));
      assert.ok(!existsSync(path.join(data, 'LOCK')), 'no empty lock file left behind');
    } finally {
      rmSync(filler);
    }
  });

  it('a compaction that runs out of room leaves no snapshot behind, and the journal stays the truth; closing only warns', async () => {
    await stopService();
    const before = journalBytes();
    const warnings: string[] = [];
    const store = await EmbeddedStore.open({ dataDir: data, onWarning: (w) => warnings.push(w) });
    const size = await store.size();
    await assert.rejects(store.compact(), (error: NodeJS.ErrnoException) => error.code === 'ENOSPC');
    await store.close(); // a journal of an earlier run: it tries to compact again, and says it could not
    assert.deepEqual(warnings, [
      `could not compact the journal of ${data} into a snapshot on close (ENOSPC: no space left on device, write); it stays as it is`,
    ]);
    assert.deepEqual(readdirSync(data), [journalFileName]);
    assert.ok(journalBytes().equals(before));
    const reopened = await EmbeddedStore.open({ dataDir: data });
    try {
      assert.equal(await reopened.size(), size);
    } finally {
      await reopened.close().catch(() => undefined);
    }
  });

  it('`mcp-ld repair` on a full disk refuses with one line (exit 1), and leaves the journal as it was', async () => {
    const journal = path.join(data, journalFileName);
    const damaged = journalBytes();
    damaged[damaged.length >> 1] ^= 0xff; // inside the large first write: its checksum fails
    writeFileSync(journal, damaged);
    for (const room of ['none', 'a little'] as const) {
      const filler = path.join(mount!, 'filler');
      fillUp(filler);
      if (room === 'a little') truncateSync(filler, Math.max(0, statSync(filler).size - 64 * 1024)); // not enough to copy the damaged write aside
      try {
        const result = await runCli(['repair', '--data', data]);
        assert.equal(result.code, 1, `${room}: ${result.stdout}${result.stderr}`);
        const what =
          room === 'none' ? 'it cannot be opened for writing' : 'the journal was not repaired and is as it was';
        assert.match(
          result.stderr,
          new RegExp(
            `^mcp-ld repair: Insufficient storage: the disk of the data directory .* is full \\(ENOSPC\\): ${what}`,
            'm',
          ),
        );
        assert.doesNotMatch(result.stderr, /^\s+at /m);
        assert.ok(journalBytes().equals(damaged), `${room}: the journal is as it was`);
        assert.deepEqual(readdirSync(data), [journalFileName], `${room}: nothing of the repair is left behind`);
      } finally {
        rmSync(filler);
      }
    }
  });
});
