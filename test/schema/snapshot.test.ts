import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cachePath, writeCached } from '../../src/core/cache.js';
import { schemasDir } from '../../src/core/paths.js';
import { createSchemaIndex, loadOverlay, loadSchema, loadSeedDocuments } from '../../src/schema/index.js';
import { readSnapshot, readSnapshotDocuments, snapshotKey } from '../../src/schema/snapshot.js';
import { MessagePlans } from '../../src/lift/message-plans.js';
import { cacheEntries, schemaOfOurOwn } from '../helpers/schema-of-our-own.js';

describe('schema snapshot', () => {
  it('holds what building the shipped schemas gives: documents, messages, anchors, overlay and content key', () => {
    const loaded = loadSchema();
    const built = createSchemaIndex(loadSeedDocuments(), loadOverlay());
    const key = snapshotKey(schemasDir, true)!;
    const snapshot = readSnapshot(key);
    assert.ok(snapshot, 'loading the schemas wrote their snapshot');
    assert.deepEqual(readSnapshotDocuments(key), built.documents);
    assert.deepEqual(snapshot.messages, built.messages);
    assert.deepEqual(snapshot.anchors, built.resolver.anchorTable());
    assert.deepEqual(snapshot.overlay, built.overlay);
    assert.equal(snapshot.contentKey, built.contentKey);
    assert.deepEqual(loaded.documents, built.documents);
    assert.deepEqual(loaded.messages, built.messages);
    assert.deepEqual(loaded.seed, built.seed, 'the seed is read when asked for');
    assert.deepEqual(
      loadSchema({ overlay: false }).documents,
      built.seed,
      'without the overlay, the effective documents are the seed',
    );
  });

  it('is keyed by the bytes of the schema files and by whether the overlay applies', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-snapshot-'));
    try {
      cpSync(schemasDir, dir, { recursive: true });
      const shipped = snapshotKey(schemasDir, true);
      assert.equal(snapshotKey(dir, true), shipped, 'the same bytes give the same key');
      assert.notEqual(snapshotKey(dir, false), shipped);
      const overlay = path.join(dir, 'overlay.yaml');
      chmodSync(overlay, 0o644);
      appendFileSync(overlay, '\n# one more line\n');
      const edited = snapshotKey(dir, true);
      assert.notEqual(edited, shipped);
      assert.equal(
        snapshotKey(dir, false),
        snapshotKey(schemasDir, false),
        'an overlay that does not apply does not count',
      );
      rmSync(overlay);
      assert.notEqual(snapshotKey(dir, true), edited);
      assert.notEqual(snapshotKey(dir, true), shipped);
      rmSync(path.join(dir, 'mcp-2025-06-18.annotated.yaml'));
      assert.equal(snapshotKey(dir, true), undefined, 'no key without the seed: loading then reports the missing file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is ignored when damaged', () => {
    const key = `test-damaged-${process.pid}`;
    try {
      writeCached(`schema-${key}.json`, '{"messages": [');
      writeCached(`schema-${key}.documents.json`, '[]');
      assert.equal(readSnapshot(key), undefined);
      assert.equal(readSnapshotDocuments(key), undefined);
    } finally {
      for (const name of [`schema-${key}.json`, `schema-${key}.documents.json`])
        rmSync(cachePath(name), { force: true });
    }
  });

  it('gives lifting plans read back from the cache equal to those compiled', () => {
    const before = cacheEntries();
    const schema = schemaOfOurOwn('snapshot.test');
    try {
      const compiled = new MessagePlans(schema);
      const restored = new MessagePlans(schema);
      assert.ok(
        [...cacheEntries()].some((name) => !before.has(name) && name.startsWith('plans-')),
        'the compiled plans were cached',
      );
      const everything = (plans: MessagePlans) => ({
        messages: [...schema.messages, { name: 'NoSuchMessage' }].map((m) => plans.plan(m.name)),
        envelope: [
          plans.jsonrpc,
          plans.method,
          plans.error,
          plans.idPredicate,
          plans.paramsPredicate,
          plans.resultPredicate,
        ],
        unknown: [plans.unknownRequest, plans.unknownNotification, plans.genericResult],
        compiler: plans.compiler.state(),
        iris: plans.compiler.schemaIris(),
      });
      assert.notEqual(
        restored.plan('CallToolRequest'),
        compiled.plan('CallToolRequest'),
        'the second set was read back, not shared',
      );
      assert.deepStrictEqual(everything(restored), everything(compiled));
    } finally {
      for (const name of cacheEntries())
        if (!before.has(name) && name.startsWith('plans-')) rmSync(cachePath(name), { force: true });
    }
  });
});
