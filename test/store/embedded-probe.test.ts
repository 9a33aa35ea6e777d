import assert from 'node:assert/strict';
import { EmbeddedProbe } from '../../src/store/embedded-probe.js';
import type { ProbeRequest } from '../../src/store/embedded-probe-thread.js';
import { McpLdError } from '../../src/core/problem.js';

describe('store: the embedded store’s probe', function () {
  this.timeout(60_000);

  it('tries a text once: one the empty engine ran is not tried again; one that kills it is refused every time', async () => {
    const probe = new EmbeddedProbe();
    const thread = (probe as unknown as { thread: { run: (...args: unknown[]) => Promise<unknown> } }).thread;
    const run = thread.run.bind(thread);
    let tries = 0;
    thread.run = (...args) => (tries++, run(...args));
    const query = (sparql: string, kind: 'union' | 'session' = 'union', graphForm = false): ProbeRequest => ({
      op: 'query',
      sparql,
      graphForm,
      dataset: kind === 'union' ? { kind } : { kind, graph: 'urn:x:g' },
    });
    try {
      const text = 'SELECT * WHERE { ?s ?p ?o }';
      assert.equal((await probe.try(query(text), 5000)) <= 5000, true);
      assert.equal(await probe.try(query(text), 5000), 5000, 'the whole time left: not tried again');
      assert.equal(tries, 1);
      await probe.try(query(text, 'session'), 5000);
      await probe.try(query(text, 'union', true), 5000);
      await probe.try(query(`${text} LIMIT 1`), 5000);
      assert.equal(tries, 4, 'another dataset, form or text is tried');
      const killer = 'SELECT * WHERE { ?s ?p ?o' + ' OPTIONAL { ?s ?p ?o }'.repeat(1000) + ' }';
      for (let i = 0; i < 2; i++)
        await assert.rejects(
          probe.try(query(killer), 20_000),
          (error: unknown) => error instanceof McpLdError && error.code === 'query.too-complex',
        );
      assert.equal(tries, 6, 'a refusal is not remembered');
    } finally {
      await probe.close();
    }
  });
});
