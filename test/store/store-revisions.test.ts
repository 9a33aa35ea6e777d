import assert from 'node:assert/strict';
import oxigraph from 'oxigraph';
import type { Term } from '@rdfjs/types';
import { newStamp, RemoteChanges, revisionsGraph, stampsQuery } from '../../src/store/store-revisions.js';
import type { StoreChange } from '../../src/store/store-changes.js';
import { isSystemGraph } from '../../src/store/system-graphs.js';

/** A real SPARQL engine (Oxigraph, in process) for the remote store: the stamps' texts run on it as they are. */
function sparqlStore() {
  const store = new oxigraph.Store();
  let selects = 0;
  const select = async (sparql: string): Promise<Map<string, Term>[]> => {
    selects++;
    const solutions = store.query(sparql) as Map<string, Term>[];
    return solutions.map((solution) => new Map([...solution.entries()]));
  };
  return { store, select, selects: () => selects };
}

const g = (n: number) => `urn:mcp-ld:session/s${n}`;

/** Writes a stamp as the remote store does: its updates in order. */
function stamp(store: oxigraph.Store, written: ReturnType<typeof newStamp>): void {
  for (const update of written.updates) store.update(update);
}

describe('store: the stamps of mcp-ld’s writes in a remote store', () => {
  it('keep one stamp per graph written and one for the store, replaced by each write, in a system graph', async () => {
    const { store, select } = sparqlStore();
    assert.ok(isSystemGraph(revisionsGraph), 'no union query or session list sees the stamps');
    const first = newStamp([g(1), g(2)], true);
    stamp(store, first);
    const second = newStamp([g(2)], true);
    stamp(store, second);
    const rows = (await select(stampsQuery)).map(
      (r) => `${r.get('g')!.value} ${r.get('p')!.value} ${r.get('r')!.value}`,
    );
    assert.deepEqual(
      rows.sort(),
      [
        `${revisionsGraph} https://w3id.org/mcp-ld/store#revision ${second.token}`,
        `${g(1)} https://w3id.org/mcp-ld/store#revision ${first.token}`,
        `${g(2)} https://w3id.org/mcp-ld/store#revision ${second.token}`,
      ].sort(),
    );
    assert.equal(store.size, 3, 'nothing outside the stamps graph, and no stamp left behind');
  });

  it('stamp a write to 2,000 graphs in updates of a few KB, the store’s own stamp in the last', async () => {
    const { store, select } = sparqlStore();
    const graphs = Array.from({ length: 2_000 }, (_, i) => g(i));
    stamp(store, newStamp(graphs.slice(0, 10), true));
    const written = newStamp(graphs, true);
    assert.ok(written.updates.length > 1, `${written.updates.length} update`);
    const sent = written.updates.map((update) => new URLSearchParams({ update }).toString().length);
    assert.ok(Math.max(...sent) < 4_096, `no request grows with the graphs written: ${Math.max(...sent)} bytes`);
    const storeStamp = `<${revisionsGraph}> <https://w3id.org/mcp-ld/store#revision> "${written.token}"`;
    assert.deepEqual(
      written.updates.map((u) => u.includes(storeStamp)),
      written.updates.map((_, i) => i === written.updates.length - 1),
      'the store’s stamp moves last, once every graph’s has',
    );
    stamp(store, written);
    const tokens = new Map((await select(stampsQuery)).map((r) => [r.get('g')!.value, r.get('r')!.value]));
    assert.equal(tokens.size, 2_001);
    assert.ok([...tokens.values()].every((token) => token === written.token));
    assert.equal(store.size, 2_001, 'one stamp per graph, the earlier ones replaced');
  });

  it('tell a reader the graphs another writer stamped, each once, and nothing when nothing moved', async () => {
    const { store, select, selects } = sparqlStore();
    const reader = new RemoteChanges(select, 60_000);
    const told: StoreChange[] = [];
    const stop = reader.listen((change) => told.push(change));
    try {
      stamp(store, newStamp([g(1)], true)); // before the reader's first look: what it starts from
      await reader.current();
      assert.deepEqual(told, []);
      stamp(store, newStamp([g(2), g(3)], true));
      stamp(store, newStamp([g(3)], true));
      await reader.current();
      assert.deepEqual(told, [{ graphs: [g(2), g(3)] }]);
      const before = selects();
      await reader.current();
      assert.equal(selects() - before, 1, 'the store’s stamp alone is read when it did not move');
      assert.equal(told.length, 1);
      // A write whose graphs are unknown (an update): everything may have changed.
      stamp(store, newStamp([], false));
      await reader.current();
      assert.deepEqual(told[1], { graphs: [] });
      // A stamp gone (its graph's removed by hand): told as a change too.
      store.update(`DELETE WHERE { GRAPH <${revisionsGraph}> { <${g(1)}> ?p ?o } }`);
      stamp(store, newStamp([g(4)], true));
      await reader.current();
      assert.deepEqual(told[2], { graphs: [g(1), g(4)] });
    } finally {
      stop();
    }
  });

  it('tell the writer’s own writes at once, and not again when read back; another process’s in between still', async () => {
    const { store, select } = sparqlStore();
    const changes = new RemoteChanges(select, 60_000);
    const told: StoreChange[] = [];
    const stop = changes.listen((change) => told.push(change));
    try {
      await changes.current();
      const own = newStamp([g(1)], true);
      stamp(store, newStamp([g(2)], true)); // another process, just before
      stamp(store, own);
      changes.wrote([g(1)], own.token, true);
      assert.deepEqual(told, [{ graphs: [g(1)] }]);
      await changes.current();
      assert.deepEqual(told, [{ graphs: [g(1)] }, { graphs: [g(2)] }]);
    } finally {
      stop();
    }
  });

  it('a look asked while one is under way is a new one, after it: a write just before the ask is never missed', async () => {
    const { store, select } = sparqlStore();
    let release: (() => void) | undefined;
    let gate: Promise<void> | undefined;
    const slowSelect = async (sparql: string) => {
      const rows = await select(sparql); // read now, answered later
      if (gate) await gate;
      return rows;
    };
    const changes = new RemoteChanges(slowSelect, 60_000);
    const told: StoreChange[] = [];
    const stop = changes.listen((change) => told.push(change));
    try {
      await changes.current();
      gate = new Promise((resolve) => (release = resolve));
      const under = changes.current(); // reads the stamps now, before the write below
      await new Promise((resolve) => setImmediate(resolve));
      stamp(store, newStamp([g(5)], true));
      const asked = changes.current();
      gate = undefined;
      release!();
      await Promise.all([under, asked]);
      assert.deepEqual(told, [{ graphs: [g(5)] }]);
    } finally {
      stop();
    }
  });

  it('rejects when the store does, and looks again next time', async () => {
    const { store, select } = sparqlStore();
    let down = true;
    const changes = new RemoteChanges(async (sparql) => {
      if (down) throw new Error('store unavailable');
      return select(sparql);
    }, 60_000);
    await assert.rejects(changes.current(), /store unavailable/);
    down = false;
    stamp(store, newStamp([g(1)], true));
    await changes.current();
  });
});
