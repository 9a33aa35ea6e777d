import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BatchWriter } from '../../src/store/batch-writer.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import type { IngestOptions } from '../../src/store/quad-store.js';

/** `count` quads in graph `urn:g:<graph>`, one N-Quads line each. */
function quads(graph: string, count: number, from = 0): string {
  let text = '';
  for (let i = from; i < from + count; i++) text += `<urn:s:${i}> <urn:p> "${i}" <urn:g:${graph}> .\n`;
  return text;
}

describe('store: BatchWriter on the embedded store (each batch checked while the one before is stored)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-batch-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores every batch, in order, durably', async () => {
    const store = await EmbeddedStore.open({ dataDir: dir });
    const writer = new BatchWriter(store, 2);
    for (let i = 0; i < 40; i++) await writer.add(quads(String(i % 7), 5, i * 5));
    await writer.finish();
    assert.equal(writer.error, undefined);
    assert.deepEqual(writer.stored, { quads: 200, batches: 20, messages: 40 });
    await store.close();
    const reopened = await EmbeddedStore.open({ dataDir: dir });
    assert.equal(await reopened.size(), 200);
    await reopened.close();
  });

  it('takes a store still opening: its batches wait for it, and a store that fails to open is the error, nothing thrown', async () => {
    let opened!: (store: EmbeddedStore) => void;
    const opening = new Promise<EmbeddedStore>((resolve) => (opened = resolve));
    const writer = new BatchWriter(opening, 2);
    const adding = (async () => {
      for (let i = 0; i < 6; i++) await writer.add(quads('a', 5, i * 5));
      await writer.finish();
    })();
    const store = await EmbeddedStore.open({ dataDir: dir });
    opened(store);
    await adding;
    assert.equal(writer.error, undefined);
    assert.deepEqual(writer.stored, { quads: 30, batches: 3, messages: 6 });
    assert.equal(await store.size(), 30);
    await store.close();

    const failing = Promise.reject(new Error('no such store'));
    failing.catch(() => undefined);
    const refused = new BatchWriter(failing, 2);
    for (let i = 0; i < 6; i++) await refused.add(quads('b', 5, i * 5));
    await refused.finish();
    assert.equal(refused.error?.code, 'store.failed');
    assert.match(refused.error?.detail ?? '', /no such store/);
    assert.deepEqual(refused.stored, { quads: 0, batches: 0, messages: 0 });
  });

  it("hands over the lifter's counts with a batch whose every message has them (not checked again), none otherwise", async () => {
    const store = await EmbeddedStore.open({ dataDir: dir });
    const handed: IngestOptions['lifted'][] = [];
    const watched = new Proxy(store, {
      get: (target, key) =>
        key === 'prepareIngest'
          ? (nquads: string | Uint8Array, options?: IngestOptions) => {
              handed.push(options?.lifted);
              return target.prepareIngest(nquads, options);
            }
          : (Reflect.get(target, key) as unknown),
    });
    const writer = new BatchWriter(watched, 2);
    await writer.add(quads('a', 3), { quads: 3, graph: 'urn:g:a' });
    await writer.add(quads('b', 2), { quads: 2, graph: 'urn:g:b' });
    await writer.add(quads('c', 1), { quads: 1, graph: 'urn:g:c' });
    await writer.add(quads('d', 1)); // said nothing: its batch is checked
    await writer.add(quads('a', 2, 3), { quads: 2, graph: 'urn:g:a' });
    await writer.finish();
    assert.deepEqual(handed, [
      { quads: 5, graphs: ['urn:g:a', 'urn:g:b'] },
      undefined,
      { quads: 2, graphs: ['urn:g:a'] },
    ]);
    assert.deepEqual(writer.stored, { quads: 9, batches: 3, messages: 5 });
    assert.equal(await store.size(), 9);
    await store.close();
  });

  it('stores nothing after a batch the store refused, not even a later batch that would fit', async () => {
    const store = await EmbeddedStore.open({ dataDir: dir, maxQuads: 30 });
    const writer = new BatchWriter(store, 1);
    await writer.add(quads('a', 20)); // stored
    await writer.add(quads('b', 20)); // store full: refused
    await writer.add(quads('c', 5)); // would fit, but comes after the refusal
    await writer.finish();
    assert.equal(writer.error?.code, 'store.full');
    assert.deepEqual(writer.stored, { quads: 20, batches: 1, messages: 1 });
    assert.equal(await store.size(), 20);
    assert.deepEqual(
      (await store.graphs()).map((g) => g.graph),
      ['urn:g:a'],
    );
    await store.close();
  });

  it('an invalid batch checked ahead stops the writer in its turn: the batches before it are stored, none after', async () => {
    const store = await EmbeddedStore.open({ dataDir: dir });
    const writer = new BatchWriter(store, 1);
    await writer.add(quads('a', 3));
    await writer.add('<urn:s> <urn:p> "unterminated <urn:g:b> .\n');
    await writer.add(quads('c', 3));
    await writer.finish();
    assert.equal(writer.error?.code, 'store.invalid-nquads');
    assert.deepEqual(writer.stored, { quads: 3, batches: 1, messages: 1 });
    assert.deepEqual(
      (await store.graphs()).map((g) => g.graph),
      ['urn:g:a'],
    );
    await store.close();
  });
});
