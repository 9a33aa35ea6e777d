import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { openStore, memoryOnlyWarning } from '../../src/store/open-store.js';
import { encodeFrame } from '../../src/store/frames.js';
import { journalFileName } from '../../src/store/file-journal.js';
import { lockFileName } from '../../src/store/data-lock.js';
import { readStoreConfig } from '../../src/core/config.js';
import { crashBatch, crashBatchGraph } from '../helpers/crash-batch.js';
import { g1, g2, quadStoreSuite, rejects, rowsOf, sample } from './quad-store-suite.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const childScript = path.join(here, '..', 'helpers', 'ingest-child.js');
const updateChildScript = path.join(here, 'update-child.js');

/**
 * Runs a writer child (ingest-child.js, update-child.js) until it has acknowledged `killAfter` writes, then kill -9.
 */
async function ackedBeforeKill(script: string, args: string[], killAfter: number): Promise<Set<number>> {
  const acked = new Set<number>();
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const match = /^ack (\d+)$/.exec(line);
        if (match) acked.add(Number(match[1]));
        if (acked.size >= killAfter) {
          child.kill('SIGKILL');
          resolve();
        }
      }
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited (${code}): ${stderr}`)),
    );
  });
  await exited;
  return acked;
}

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'mcp-ld-store-'));
}

/** A few thousand quads: enough for a cartesian product that runs for hours. */
function manyQuads(count: number, graph = g1): string {
  let text = '';
  for (let i = 0; i < count; i++) text += `<urn:x:s${i}> <urn:x:p${i % 7}> "${i}" <${graph}> .\n`;
  return text;
}

const runaway = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';

describe('store: embedded (Oxigraph in a worker thread)', function () {
  this.timeout(60_000);

  describe('in memory', () => {
    let store: EmbeddedStore;
    beforeEach(async () => (store = await EmbeddedStore.open()));
    afterEach(() => store.close());
    quadStoreSuite(() => store);
  });

  describe('with a data directory', () => {
    let dir: string;
    let store: EmbeddedStore;
    beforeEach(async () => {
      dir = tempDir();
      store = await EmbeddedStore.open({ dataDir: dir });
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    quadStoreSuite(() => store);

    it('gives the same answers after a restart on the same data directory', async () => {
      await store.ingest(sample);
      await store.deleteGraph(g2);
      await store.ingest(`<urn:x:carol> <urn:x:name> "Carol" <${g2}> .\n`);
      const before = {
        graphs: await store.graphs(),
        rows: rowsOf(await store.query('SELECT ?s ?name WHERE { ?s <urn:x:name> ?name } ORDER BY ?name')),
      };
      await store.close();
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.deepEqual(await store.graphs(), before.graphs);
      assert.deepEqual(
        rowsOf(await store.query('SELECT ?s ?name WHERE { ?s <urn:x:name> ?name } ORDER BY ?name')),
        before.rows,
      );
    });

    it('compacts a journal of deleted or repeated data into a snapshot as it grows, and on close', async () => {
      await store.close();
      store = await EmbeddedStore.open({ dataDir: dir, compactLogBytes: 64 * 1024 });
      // Every batch twice: half the journal is quads the store already has, so compacting pays on the way.
      for (let n = 0; n < 5; n++) for (let twice = 0; twice < 2; twice++) await store.ingest(crashBatch(n, 200));
      assert.ok(statSync(path.join(dir, 'snapshot.mld')).size > 0);
      assert.ok(statSync(path.join(dir, journalFileName)).size < 10 * 200 * 230);
      await store.deleteGraph(crashBatchGraph(0));
      await store.close();
      assert.equal(statSync(path.join(dir, journalFileName)).size, 0);
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.equal(await store.size(), 4 * 200);
      assert.equal((await store.graphs()).length, 4);
    });

    it('keeps a journal of fresh quads as it is on close (replaying it costs what a snapshot would), and compacts later', async () => {
      for (let n = 0; n < 3; n++) await store.ingest(crashBatch(n, 300));
      await store.close();
      assert.ok(!existsSync(path.join(dir, 'snapshot.mld')));
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.equal(await store.size(), 900);
      await store.close(); // journal entries of an earlier run: compacted
      assert.ok(existsSync(path.join(dir, 'snapshot.mld')));
      assert.equal(statSync(path.join(dir, journalFileName)).size, 0);
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.equal(await store.size(), 900);
    });

    it('a second open of a live data directory fails clearly (423), and the first keeps working', async () => {
      const error = await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.locked', 423);
      assert.match(error.message, new RegExp(`in use by this process`));
      await store.ingest(sample);
      assert.equal(await store.size(), 6);
    });

    it('takes over a lock left by a process that no longer exists', async () => {
      await store.close();
      const dead = spawn(process.execPath, ['-e', '0']);
      const pid = dead.pid!;
      await new Promise((resolve) => dead.on('exit', resolve));
      writeFileSync(
        path.join(dir, lockFileName),
        JSON.stringify({ pid, host: (await import('node:os')).hostname(), since: 'then' }),
      );
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.equal(JSON.parse(readFileSync(path.join(dir, lockFileName), 'utf8')).pid, process.pid);
      // A restarted container often gets the same pid again: a lock older than the process holding its pid is stale.
      await store.close();
      writeFileSync(
        path.join(dir, lockFileName),
        JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), since: '2020-01-01T00:00:00Z' }),
      );
      store = await EmbeddedStore.open({ dataDir: dir });
    });

    it('ignores a torn last journal frame (a crash mid-append) with a warning, and keeps everything before it', async () => {
      await store.ingest(sample);
      await store.close();
      const journal = path.join(dir, journalFileName);
      appendFileSync(journal, encodeFrame('quads', 1000, Buffer.from(`<urn:x:dave> <urn:x:name> "Dave" <${g1}> .\n`)));
      const torn = encodeFrame('quads', 1001, Buffer.from(`<urn:x:erin> <urn:x:name> "Erin" <${g1}> .\n`));
      appendFileSync(journal, torn.subarray(0, torn.length - 10));
      const warnings: string[] = [];
      store = await EmbeddedStore.open({ dataDir: dir, onWarning: (w) => warnings.push(w) });
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /incomplete last write/);
      assert.equal(await store.size(), 7);
      assert.deepEqual(await store.query('ASK { ?s <urn:x:name> "Erin" }'), { form: 'ASK', boolean: false });
      // The cut-off journal takes new writes after its last whole frame.
      await store.ingest(`<urn:x:frank> <urn:x:name> "Frank" <${g1}> .\n`);
      await store.close();
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.equal(await store.size(), 8);
    });

    it('refuses to open a journal damaged before its end (500), rather than drop acknowledged writes', async () => {
      await store.close();
      const journal = path.join(dir, journalFileName);
      const first = encodeFrame('quads', 1, Buffer.from(`<urn:x:a> <urn:x:b> "1" <${g1}> .\n`));
      first[first.length - 3] ^= 0xff;
      writeFileSync(
        journal,
        Buffer.concat([first, encodeFrame('quads', 2, Buffer.from(`<urn:x:a> <urn:x:b> "2" <${g1}> .\n`))]),
      );
      await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.corrupt', 500);
      store = await EmbeddedStore.open(); // for afterEach
    });

    it('refuses to open a journal whose length field is damaged before its end, and keeps the file as it was', async () => {
      // Five acknowledged writes; then the length of the second frame is garbled (as a bad sector would): reading
      // it runs past the end of the file, which is what a torn last write looks like, but three whole frames follow.
      await store.close();
      const journal = path.join(dir, journalFileName);
      const frames = [1, 2, 3, 4, 5].map((n) =>
        encodeFrame('quads', n, Buffer.from(`<urn:x:a> <urn:x:b> "${n}" <${g1}> .\n`)),
      );
      const bytes = Buffer.concat(frames);
      bytes[frames[0]!.length + 16] = 0x20;
      writeFileSync(journal, bytes);
      const error = await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.corrupt', 500);
      assert.match(
        error.message,
        new RegExp(`damaged at byte ${frames[0]!.length} .*whole frames follow it .*write 3`),
      );
      assert.ok(readFileSync(journal).equals(bytes), 'nothing was cut from the journal');
      // A torn last frame alone is still an incomplete write, cut with a warning.
      writeFileSync(journal, Buffer.concat([...frames.slice(0, 4), frames[4]!.subarray(0, 30)]));
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.equal((await store.graphs()).find((g) => g.graph === g1)?.quads, 4);
    });

    it('opened read-only, it answers queries, refuses writes (store.read-only, 409) and writes nothing on close', async () => {
      await store.ingest(sample);
      await store.close();
      const journal = path.join(dir, journalFileName);
      const bytes = readFileSync(journal);
      store = await EmbeddedStore.open({ dataDir: dir, readOnly: true });
      assert.equal(await store.size(), 6);
      await rejects(store.ingest(sample), 'store.read-only', 409);
      await rejects(store.deleteGraph(g1), 'store.read-only', 409);
      await rejects(store.update(`INSERT DATA { GRAPH <${g1}> { <urn:x:a> <urn:x:b> "c" } }`), 'store.read-only', 409);
      await rejects(store.compact(), 'store.read-only', 409);
      await store.close(); // a journal of an earlier run: a writer would fold it into a snapshot here
      assert.ok(readFileSync(journal).equals(bytes));
      assert.ok(!existsSync(path.join(dir, 'snapshot.mld')));
      store = await EmbeddedStore.open({ dataDir: dir });
    });

    it('a refusal to open names the byte of the damage and the sessions it can still read before and after it', async () => {
      await store.close();
      const journal = path.join(dir, journalFileName);
      const session = (n: number) => `urn:mcp-ld:session/write-${n}`;
      const frames = [1, 2, 3, 4, 5].map((n) =>
        encodeFrame('quads', n, Buffer.from(`<urn:x:a> <urn:x:b> "${n}" <${session(n)}> .\n`)),
      );
      const lengthDamaged = Buffer.concat(frames);
      lengthDamaged[frames[0]!.length + 16] = 0x20;
      writeFileSync(journal, lengthDamaged);
      const error = await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.corrupt', 500);
      assert.match(
        error.message,
        new RegExp(
          `damaged at byte ${frames[0]!.length} \\(incomplete frame; its bytes name urn:mcp-ld:session/write-2\\)`,
        ),
      );
      assert.match(
        error.message,
        /reads 1 write \(sessions: urn:mcp-ld:session\/write-1\) before the damage, and 3 writes \(sessions: urn:mcp-ld:session\/write-3, urn:mcp-ld:session\/write-4, urn:mcp-ld:session\/write-5\) after it/,
      );
      assert.ok(error.message.includes(`mcp-ld repair --data ${dir}`), error.message);
      // A checksum that fails in the middle of the file: the same account.
      const payloadDamaged = Buffer.concat(frames);
      payloadDamaged[frames[0]!.length + frames[1]!.length + 30] ^= 0xff;
      writeFileSync(journal, payloadDamaged);
      const again = await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.corrupt', 500);
      assert.match(
        again.message,
        new RegExp(`damaged at byte ${frames[0]!.length + frames[1]!.length} \\(checksum mismatch.*before its end`),
      );
      assert.match(
        again.message,
        /reads 2 writes \(sessions: urn:mcp-ld:session\/write-1, urn:mcp-ld:session\/write-2\) before the damage, and 2 writes \(sessions: urn:mcp-ld:session\/write-4, urn:mcp-ld:session\/write-5\) after it/,
      );
      assert.ok(readFileSync(journal).equals(payloadDamaged), 'nothing was cut from the journal');
      store = await EmbeddedStore.open(); // for afterEach
    });

    it('the warning about a torn last write names its sessions when its bytes tell, and says so when they do not', async () => {
      await store.ingest(sample);
      await store.close();
      const journal = path.join(dir, journalFileName);
      const torn = encodeFrame(
        'quads',
        1000,
        Buffer.from(`<urn:x:erin> <urn:x:name> "Erin" <${g2}> .\n<urn:x:erin> <urn:x:age> "3" <${g2}> .\n`),
      );
      appendFileSync(journal, torn.subarray(0, torn.length - 10));
      const warnings: string[] = [];
      store = await EmbeddedStore.open({ dataDir: dir, onWarning: (w) => warnings.push(w) });
      assert.deepEqual(warnings, [
        `${journal}: ignored an incomplete last write (write 1000 of session ${g2}, ${torn.length - 10} bytes; incomplete frame): it had not been acknowledged, and was cut off`,
      ]);
      await store.close();
      appendFileSync(journal, torn.subarray(0, 40));
      warnings.length = 0;
      store = await EmbeddedStore.open({ dataDir: dir, onWarning: (w) => warnings.push(w) });
      assert.deepEqual(warnings, [
        `${journal}: ignored an incomplete last write (write 1000, 40 bytes, which do not tell its sessions; incomplete frame): it had not been acknowledged, and was cut off`,
      ]);
      await store.close();
      appendFileSync(journal, torn.subarray(0, 20));
      warnings.length = 0;
      store = await EmbeddedStore.open({ dataDir: dir, onWarning: (w) => warnings.push(w) });
      assert.deepEqual(warnings, [
        `${journal}: ignored an incomplete last write (20 bytes, which do not tell which write or sessions it was; incomplete frame header): it had not been acknowledged, and was cut off`,
      ]);
    });

    it('survives kill -9 mid-ingest: every acknowledged batch is there, and no batch is there in part', async function () {
      this.timeout(120_000);
      await store.close();
      const perBatch = 300;
      // Round 1: one batch at a time. Round 2: three at once (group commit), each twice, and a tiny compaction
      // threshold: the journal is folded into snapshots on the way, so the kill can land in one too.
      for (const [concurrency, compactBytes, killAfter, repeat] of [
        [1, 512 * 1024 * 1024, 25, ''],
        [3, 256 * 1024, 40, 'repeat'],
      ] as const) {
        const roundDir = path.join(dir, `round-${concurrency}`);
        const acked = await ackedBeforeKill(
          childScript,
          [roundDir, String(perBatch), String(concurrency), String(compactBytes), repeat],
          killAfter,
        );
        if (repeat) assert.ok(existsSync(path.join(roundDir, 'snapshot.mld')), 'the journal was compacted on the way');
        store = await EmbeddedStore.open({ dataDir: roundDir });
        const graphs = await store.graphs();
        const present = new Map(graphs.map((g) => [g.graph, g.quads]));
        for (const n of acked)
          assert.equal(present.get(crashBatchGraph(n)), perBatch, `acknowledged batch ${n} is missing or incomplete`);
        for (const { graph, quads } of graphs) assert.equal(quads, perBatch, `${graph} holds part of a batch`);
        await store.close();
      }
      store = await EmbeddedStore.open({ dataDir: dir });
    });

    it('an update survives a restart and a compaction, in order with the ingests and deletes around it', async () => {
      await store.ingest(sample);
      await store.update(
        `DELETE WHERE { GRAPH <${g2}> { <urn:x:bob> <urn:x:age> ?age } } ; INSERT DATA { GRAPH <${g2}> { <urn:x:bob> <urn:x:age> 43 } }`,
      );
      await store.deleteGraph(g1);
      await store.ingest(`<urn:x:carol> <urn:x:name> "Carol" <${g1}> .\n`);
      await store.update(
        `DELETE DATA { GRAPH <${g1}> { <urn:x:carol> <urn:x:name> "Carol" } } ; INSERT DATA { GRAPH <${g1}> { <urn:x:carol> <urn:x:name> "Caroline" } }`,
      );
      const answers = async () => ({
        graphs: await store.graphs(),
        rows: rowsOf(await store.query('SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o')),
      });
      const before = await answers();
      assert.deepEqual(rowsOf(await store.query('SELECT ?age WHERE { <urn:x:bob> <urn:x:age> ?age }')), [
        { age: '43' },
      ]);
      await store.close(); // an update in the journal: compacted into a snapshot on close
      assert.ok(existsSync(path.join(dir, 'snapshot.mld')));
      store = await EmbeddedStore.open({ dataDir: dir });
      assert.deepEqual(await answers(), before);
      await store.update(`INSERT DATA { GRAPH <${g2}> { <urn:x:dan> <urn:x:name> "Dan" } }`);
      await store.close();
      store = await EmbeddedStore.open({ dataDir: dir }); // snapshot + a journal that holds one update
      assert.deepEqual(await store.query('ASK { <urn:x:dan> <urn:x:name> "Dan" }'), { form: 'ASK', boolean: true });
    });

    it('a graph exists while it holds quads: an emptied or created graph is gone, before a restart as after it', async () => {
      const empty = 'urn:mcp-ld:session/empty';
      await store.ingest(sample);
      await store.update(`DELETE WHERE { GRAPH <${g1}> { ?s ?p ?o } } ; CREATE GRAPH <${empty}>`);
      await store.compact(); // a snapshot cannot hold empty graphs: the store must not depend on them either
      await store.update(`CREATE GRAPH <${g1}>`); // no error: the graph holds nothing, so it does not exist
      await rejects(store.update(`DROP GRAPH <${empty}>`), 'update.failed', 400);
      await store.close();
      store = await EmbeddedStore.open({ dataDir: dir });
      await rejects(store.update(`DROP GRAPH <${empty}>`), 'update.failed', 400);
      assert.deepEqual(await store.graphs(), [{ graph: g2, quads: 3 }]);
    });

    it('refuses to open a journal whose update no longer applies (500), naming the write', async () => {
      await store.close();
      writeFileSync(
        path.join(dir, journalFileName),
        encodeFrame('update', 1, Buffer.from(`INSERT DATA { GRAPH <${g1}> { <urn:x:a> <urn:x:b> } }`)),
      );
      const error = await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.corrupt', 500);
      assert.match(error.message, /the SPARQL Update of write 1 no longer applies/);
      store = await EmbeddedStore.open(); // for afterEach
    });

    it('survives kill -9 mid-update: every acknowledged update is there, in order, and none is there in part', async function () {
      this.timeout(120_000);
      await store.close();
      const perUpdate = 300;
      // Round 2 compacts the journal (which holds updates) into snapshots on the way, so the kill can land in one.
      for (const [round, compactBytes, killAfter] of [
        [1, 512 * 1024 * 1024, 25],
        [2, 256 * 1024, 40],
      ] as const) {
        const roundDir = path.join(dir, `updates-${round}`);
        const acked = await ackedBeforeKill(
          updateChildScript,
          [roundDir, String(perUpdate), String(compactBytes)],
          killAfter,
        );
        if (round === 2)
          assert.ok(existsSync(path.join(roundDir, 'snapshot.mld')), 'the journal was compacted on the way');
        store = await EmbeddedStore.open({ dataDir: roundDir });
        const counter = rowsOf(
          await store.query(
            'SELECT ?n WHERE { GRAPH <urn:mcp-ld:session/counter> { <urn:x:counter> <urn:x:value> ?n } }',
          ),
        );
        assert.equal(counter.length, 1, `one counter value, not ${JSON.stringify(counter)}`);
        const last = Number(counter[0]!['n']);
        assert.ok(
          last >= Math.max(...acked),
          `update ${Math.max(...acked)} was acknowledged, the counter says ${last}`,
        );
        const present = new Map((await store.graphs()).map((g) => [g.graph, g.quads]));
        for (let n = 0; n <= last; n++)
          assert.equal(present.get(crashBatchGraph(n)), perUpdate, `update ${n} is missing or incomplete`);
        assert.equal(present.size, last + 2, 'no quads of an update after the counter');
        await store.close();
      }
      store = await EmbeddedStore.open({ dataDir: dir });
    });

    it('a second process cannot open a directory the first has open', async function () {
      this.timeout(30_000);
      await store.close();
      const child = spawn(process.execPath, [childScript, dir, '10', '1'], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise<void>((resolve) => {
        let seen = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          seen += chunk;
          if (seen.includes('ack ')) resolve();
        });
      });
      try {
        const error = await rejects(EmbeddedStore.open({ dataDir: dir }), 'store.locked', 423);
        assert.match(error.message, new RegExp(`process ${child.pid}`));
      } finally {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.on('exit', resolve));
      }
      store = await EmbeddedStore.open({ dataDir: dir }); // the dead child's lock is taken over
      assert.ok((await store.size()) > 0);
    });

    it('a query over its time limit fails with query.timeout (504); the store is rebuilt from disk and answers after', async () => {
      await store.ingest(manyQuads(3000));
      const started = performance.now();
      // The limit counts from the query's trial on an empty engine (embedded-probe.ts), which on a loaded machine can
      // take a few hundred ms itself: 2 s leaves the query the time to reach the worker, where it never ends (3000³).
      await rejects(store.query(runaway, { timeoutMs: 2000 }), 'query.timeout', 504);
      assert.ok(performance.now() - started < 8000);
      assert.equal(await store.size(), 3000);
      assert.equal(store.engineStats.restarts, 1);
      await store.ingest(sample);
      assert.equal(await store.size(), 3006);
    });
  });

  describe('updates', () => {
    let store: EmbeddedStore;
    beforeEach(async () => {
      store = await EmbeddedStore.open({ maxQuads: 20 });
      await store.ingest(sample);
    });
    afterEach(() => store.close());

    it('an update is all or nothing: when an operation fails, the ones before it are not applied (400)', async () => {
      await rejects(
        store.update(
          `INSERT DATA { GRAPH <${g1}> { <urn:x:carol> <urn:x:name> "Carol" } } ; DROP GRAPH <urn:mcp-ld:session/none>`,
        ),
        'update.failed',
        400,
      );
      assert.equal(await store.size(), 6);
      assert.deepEqual(await store.query('ASK { ?s <urn:x:name> "Carol" }'), { form: 'ASK', boolean: false });
    });

    it('an update that writes into the default graph is taken back (400): the store keeps session graphs only', async () => {
      const error = await rejects(
        store.update('INSERT DATA { <urn:x:carol> <urn:x:name> "Carol" }'),
        'update.failed',
        400,
      );
      assert.match(error.message, /default graph/);
      assert.equal(await store.size(), 6);
      await store.update(`INSERT DATA { GRAPH <${g1}> { <urn:x:carol> <urn:x:name> "Carol" } }`);
      assert.equal(await store.size(), 7);
    });

    it('an update past the ceiling is taken back with store.full (507)', async () => {
      let triples = '';
      for (let i = 0; i < 15; i++) triples += `<urn:x:s${i}> <urn:x:p> ${i} . `;
      const error = await rejects(store.update(`INSERT DATA { GRAPH <${g1}> { ${triples} } }`), 'store.full', 507);
      assert.match(error.message, /would take the store to 21 quads/);
      assert.equal(await store.size(), 6);
    });

    it('an update over its time limit fails with update.timeout (504); nothing of it is applied, and the store answers after', async () => {
      await store.close();
      store = await EmbeddedStore.open();
      await store.ingest(manyQuads(3000));
      const runawayUpdate = `INSERT { GRAPH <${g2}> { ?a <urn:x:q> ?d } } WHERE { GRAPH ?g { ?a ?b ?c . ?d ?e ?f . ?x ?y ?z } }`;
      await rejects(store.update(runawayUpdate, { timeoutMs: 300 }), 'update.timeout', 504);
      assert.deepEqual(await store.graphs(), [{ graph: g1, quads: 3000 }]);
      await store.update(`INSERT DATA { GRAPH <${g2}> { <urn:x:a> <urn:x:b> "c" } }`);
      assert.equal(await store.size(), 3001);
    });
  });

  describe('limits', () => {
    it('a runaway query in a memory-only store fails with query.timeout, and the data is rebuilt from memory', async () => {
      // 2 s: the limit holds for the count after the rebuild too, on a machine that may be loaded (2000³: no end).
      const store = await EmbeddedStore.open({ queryTimeoutMs: 2000 });
      try {
        await store.ingest(manyQuads(3000));
        await store.deleteGraph(g1);
        await store.ingest(manyQuads(2000, g2));
        await rejects(store.query(runaway), 'query.timeout', 504);
        assert.deepEqual(await store.graphs(), [{ graph: g2, quads: 2000 }]);
        assert.deepEqual(rowsOf(await store.query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), [{ n: '2000' }]);
      } finally {
        await store.close();
      }
    });

    it('an ingest and the list of graphs wait for the query running, not for the runaway queries queued behind it', async () => {
      // Five runaway queries of 1 s each, one after the other: a write behind all of them waited 5 s and more.
      const store = await EmbeddedStore.open({ queryTimeoutMs: 1000 });
      try {
        await store.ingest(manyQuads(3000));
        const runaways = Array.from({ length: 5 }, () => store.query(runaway).catch((error: unknown) => error));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const started = performance.now();
        await store.ingest(manyQuads(10, g2));
        const ingestMs = performance.now() - started;
        assert.deepEqual(
          (await store.graphs()).map((g) => g.graph),
          [g1, g2],
        );
        const readMs = performance.now() - started;
        for (const outcome of await Promise.all(runaways))
          assert.equal((outcome as { code?: string }).code, 'query.timeout');
        assert.ok(ingestMs < 3000, `the ingest waited ${Math.round(ingestMs)} ms`);
        assert.ok(readMs < 4500, `the ingest and the graph list waited ${Math.round(readMs)} ms`);
      } finally {
        await store.close();
      }
    });

    it('refuses a query at once with store.busy (429) and a Retry-After when the queries queued are at their limit', async () => {
      const store = await EmbeddedStore.open({ queryTimeoutMs: 1500, maxQueuedQueries: 2 });
      try {
        await store.ingest(manyQuads(3000));
        const queued = Array.from({ length: 3 }, () => store.query(runaway).catch((error: unknown) => error));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const started = performance.now();
        const error = await rejects(store.query('ASK { ?s ?p ?o }'), 'store.busy', 429);
        assert.ok(performance.now() - started < 500);
        assert.match(error.message, /2 queries are waiting .*MCPLD_MAX_QUEUED/);
        const retryAfter = (error as { retryAfter?: number }).retryAfter!;
        assert.ok(
          retryAfter >= 1 && retryAfter <= 2,
          `Retry-After ${retryAfter} s: until the running query reaches its limit`,
        );
        await Promise.all(queued);
        assert.equal((await store.query('ASK { ?s ?p ?o }')).form, 'ASK', 'served again once the queue drained');
      } finally {
        await store.close();
      }
    });

    it("a query that exhausts the worker's memory fails with query.too-demanding (422), not a 500; the store is rebuilt and keeps its data", async function () {
      this.timeout(120_000);
      const store = await EmbeddedStore.open();
      try {
        await store.ingest(`<urn:x:s> <urn:x:p> "${'x'.repeat(1024)}" <${g1}> .\n`);
        // Each BIND doubles the string: 2^22 KiB is past the 4 GiB WebAssembly gives the engine (which then traps).
        const vars = Array.from({ length: 22 }, (_, i) => `?v${i}`);
        const binds = vars
          .map((v, i) => `BIND(CONCAT(${i === 0 ? '?o' : vars[i - 1]}, ${i === 0 ? '?o' : vars[i - 1]}) AS ${v})`)
          .join(' ');
        // Writing gigabytes takes a loaded machine past the default 30 s limit: the limit here is the test's own.
        const error = await rejects(
          store.query(`SELECT (STRLEN(${vars.at(-1)}) AS ?n) WHERE { ?s ?p ?o ${binds} }`, { timeoutMs: 110_000 }),
          'query.too-demanding',
          422,
        );
        assert.match(error.message, /rebuilt and lost nothing/);
        assert.deepEqual(rowsOf(await store.query('SELECT (STRLEN(?o) AS ?n) WHERE { ?s ?p ?o }')), [{ n: '1024' }]);
        assert.equal(store.engineStats.restarts, 1);
      } finally {
        await store.close();
      }
    });

    it('refuses (400 too-complex) what would kill the worker — thousands of OPTIONALs, BINDs, chained operators — without a rebuild', async () => {
      const store = await EmbeddedStore.open();
      try {
        await store.ingest(sample);
        const killers = [
          'SELECT * WHERE { ?s ?p ?o' + ' OPTIONAL { ?s ?p ?o }'.repeat(1000) + ' }',
          'SELECT * WHERE { ?s ?p ?o' + Array.from({ length: 1000 }, (_, i) => ` BIND(1 AS ?b${i})`).join('') + ' }',
          'SELECT * WHERE { ?s ?p ?o FILTER(?o' + ' + 1'.repeat(5000) + ') }',
          'SELECT * WHERE ' + '{'.repeat(1600) + ' ?s ?p ?o ' + '}'.repeat(1600),
        ];
        for (const query of killers)
          assert.match((await rejects(store.query(query), 'query.too-complex', 400)).message, /cannot run this query/);
        const update =
          `INSERT { GRAPH <${g1}> { ?s <urn:x:p> 1 } } WHERE { GRAPH ?g { ?s ?p ?o` +
          ' OPTIONAL { ?s ?p ?o }'.repeat(1000) +
          ' } }';
        await rejects(store.update(update), 'update.too-complex', 400);
        assert.equal(store.engineStats.restarts, 0, 'the worker never saw them');
        assert.equal(await store.size(), 6);
        assert.equal(rowsOf(await store.query('SELECT * WHERE { ?s ?p ?o OPTIONAL { ?s ?p ?o } }')).length, 6);
      } finally {
        await store.close();
      }
    });

    it('refuses an ingest past the configured ceiling with store.full (507) pointing to the remote store', async () => {
      const store = await EmbeddedStore.open({ maxQuads: 10 });
      try {
        await store.ingest(sample);
        const error = await rejects(store.ingest(manyQuads(5, g2)), 'store.full', 507);
        assert.match(error.message, /--store/);
        assert.equal(await store.size(), 6);
        await store.ingest(sample); // duplicates do not grow the store
        await store.ingest(manyQuads(4, g2));
        assert.equal(await store.size(), 10);
        await rejects(store.ingest(manyQuads(11)), 'store.full', 507);
      } finally {
        await store.close();
      }
    });

    it('openStore warns that a store without a data directory is memory-only', async () => {
      const warnings: string[] = [];
      const store = await openStore(readStoreConfig({}, {}), { onWarning: (w) => warnings.push(w) });
      try {
        assert.equal(store.kind, 'embedded');
        assert.deepEqual(warnings, [memoryOnlyWarning]);
      } finally {
        await store.close();
      }
      const dir = tempDir();
      const durable = await openStore(readStoreConfig({ data: dir }, {}), { onWarning: (w) => warnings.push(w) });
      await durable.close();
      assert.equal(warnings.length, 1);
      assert.ok(existsSync(path.join(dir, journalFileName)));
      rmSync(dir, { recursive: true, force: true });
    });

    it('rejects calls after close with store.closed', async () => {
      const store = await EmbeddedStore.open();
      await store.close();
      await rejects(store.ingest(sample), 'store.closed', 503);
    });
  });
});
