import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { crashBatch, crashBatchGraph } from '../helpers/crash-batch.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { journalFileName, snapshotFileName } from '../../src/store/file-journal.js';

/**
 * A data directory whose journal holds `count` acknowledged writes, batch n in session batch-n; and each frame's bytes.
 */
async function journalOfWrites(dir: string, count: number): Promise<Buffer[]> {
  const store = await EmbeddedStore.open({ dataDir: dir });
  for (let n = 1; n <= count; n++) await store.ingest(crashBatch(n, 20));
  await store.close(); // fresh quads only: the journal stays as it is
  const bytes = readFileSync(path.join(dir, journalFileName));
  const frames: Buffer[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const end = offset + 24 + bytes.readUInt32BE(offset + 16);
    frames.push(bytes.subarray(offset, end));
    offset = end;
  }
  assert.equal(frames.length, count);
  return frames;
}

async function sessionsIn(dir: string): Promise<Map<string, number>> {
  const store = await EmbeddedStore.open({ dataDir: dir });
  try {
    return new Map((await store.graphs()).map((g) => [g.graph, g.quads]));
  } finally {
    await store.close();
  }
}

function damagedFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^journal\.damaged-.*\.mld$/.test(name));
}

describe('cli: repair', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-repair-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a garbled length field: keeps the writes before and after it, copies the damaged frame aside, and the directory opens', async () => {
    const frames = await journalOfWrites(dir, 5);
    const journal = path.join(dir, journalFileName);
    const original = Buffer.concat(frames);
    original[frames[0]!.length + 16] = 0x20; // the damage: the second frame's length now runs past the end
    writeFileSync(journal, original);
    const refused = await runCli(['query', '--name', 'sessions', '--data', dir]);
    assert.equal(refused.code, 1);
    assert.ok(refused.stderr.includes(`mcp-ld repair --data ${dir}`), refused.stderr);

    const result = await runCli(['repair', '--data', dir]);
    assert.equal(result.code, 0, result.stderr);
    const [aside] = damagedFiles(dir);
    assert.ok(aside, 'a file of the bytes set aside');
    assert.match(
      result.stdout,
      new RegExp(
        `^repaired ${journal}: kept 4 writes \\(${original.length - frames[1]!.length} bytes\\) that read whole$`,
        'm',
      ),
    );
    assert.match(result.stdout, new RegExp(`^set aside ${frames[1]!.length} bytes in ${path.join(dir, aside)}`, 'm'));
    assert.match(
      result.stdout,
      new RegExp(
        `^  byte ${frames[0]!.length} of the old journal, ${frames[1]!.length} bytes: incomplete frame \\(its bytes name ${crashBatchGraph(2)}\\)$`,
        'm',
      ),
    );
    assert.match(result.stdout, new RegExp(`^sessions that may have lost writes: ${crashBatchGraph(2)}$`, 'm'));
    assert.match(
      result.stdout,
      new RegExp(`^sessions in ${dir}: ${[1, 3, 4, 5].map(crashBatchGraph).join(', ')}$`, 'm'),
    );
    // Nothing lost: the kept frames and the bytes set aside are the old journal, byte for byte.
    assert.ok(
      readFileSync(path.join(dir, aside)).equals(
        original.subarray(frames[0]!.length, frames[0]!.length + frames[1]!.length),
      ),
    );
    assert.ok(
      readFileSync(journal).equals(Buffer.concat([original.subarray(0, frames[0]!.length), ...frames.slice(2)])),
    );
    assert.deepEqual(await sessionsIn(dir), new Map([1, 3, 4, 5].map((n) => [crashBatchGraph(n), 20])));
    // The repaired directory takes writes again.
    const store = await EmbeddedStore.open({ dataDir: dir });
    await store.ingest(crashBatch(6, 20));
    await store.close();
    assert.equal((await sessionsIn(dir)).size, 5);
  });

  it('several damaged regions, a write out of order and a torn last write: each set aside, one after the other, with what it was', async () => {
    const written = await journalOfWrites(dir, 6);
    // A copy of write 1 after write 5: whole, but replaying it there would undo the order of the writes.
    const frames = [...written.slice(0, 5), written[0]!, written[5]!].map((frame) => Buffer.from(frame));
    const offsets = frames.map((_, i) => frames.slice(0, i).reduce((sum, f) => sum + f.length, 0));
    frames[1]![100] ^= 0xff; // a payload byte: its checksum fails
    frames[3]![0] ^= 0xff; // the magic number
    const journal = Buffer.concat(frames).subarray(0, offsets[6]! + frames[6]!.length - 50); // the last write torn
    writeFileSync(path.join(dir, journalFileName), journal);
    const result = await runCli(['repair', '--data', dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /kept 3 writes/);
    assert.match(
      result.stdout,
      new RegExp(`byte ${offsets[1]} of the old journal, ${frames[1]!.length} bytes: checksum mismatch`),
    );
    assert.match(
      result.stdout,
      new RegExp(`byte ${offsets[3]} of the old journal, ${frames[3]!.length} bytes: bad magic number`),
    );
    assert.match(
      result.stdout,
      new RegExp(
        `byte ${offsets[5]} of the old journal, ${frames[5]!.length} bytes: write 1 after write 5: out of order \\(its bytes name ${crashBatchGraph(1)}\\)`,
      ),
    );
    assert.match(
      result.stdout,
      new RegExp(`byte ${offsets[6]} of the old journal, ${frames[6]!.length - 50} bytes: incomplete frame`),
    );
    const aside = readFileSync(path.join(dir, damagedFiles(dir)[0]!));
    const region = (i: number) => journal.subarray(offsets[i]!, offsets[i + 1] ?? journal.length);
    assert.ok(aside.equals(Buffer.concat([region(1), region(3), region(5), region(6)])));
    assert.deepEqual([...(await sessionsIn(dir)).keys()].sort(), [1, 3, 5].map(crashBatchGraph).sort());
  });

  it('a journal that reads whole: nothing to repair, nothing written, exit 0', async () => {
    await journalOfWrites(dir, 2);
    const before = readFileSync(path.join(dir, journalFileName));
    const result = await runCli(['repair', '--data', dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(`^${path.join(dir, journalFileName)} reads whole \\(2 writes\\): nothing to repair$`, 'm'),
    );
    assert.ok(readFileSync(path.join(dir, journalFileName)).equals(before));
    assert.deepEqual(damagedFiles(dir), []);
  });

  it('a damaged snapshot, which it does not repair: it says the directory still does not open, and exits 1', async () => {
    await journalOfWrites(dir, 2);
    writeFileSync(path.join(dir, snapshotFileName), 'not a snapshot');
    const result = await runCli(['repair', '--data', dir]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /reads whole \(2 writes\): nothing to repair/);
    assert.match(
      result.stderr,
      new RegExp(
        `^mcp-ld repair: the data directory still does not open: Data directory damaged: ${path.join(dir, snapshotFileName)} does not start with a snapshot header$`,
        'm',
      ),
    );
  });

  it('refuses a directory in use (exit 1, naming the process) and a command line without a data directory (exit 2)', async () => {
    const store = await EmbeddedStore.open({ dataDir: dir });
    try {
      const result = await runCli(['repair', '--data', dir]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`Data directory in use: .*process ${process.pid}`));
    } finally {
      await store.close();
    }
    const env = { ...process.env };
    delete env['MCPLD_DATA'];
    const usage = await runCli(['repair'], { env });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: mcp-ld repair --data DIR/);
    const missing = await runCli(['repair', '--data', path.join(dir, 'nowhere')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No data directory: .*nowhere is not a directory/);
    assert.ok(!existsSync(path.join(dir, 'nowhere')));
  });
});
