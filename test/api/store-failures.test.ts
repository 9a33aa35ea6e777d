// The store failing, as a client sees it over real HTTP: 503 when the remote store is down, 504 when a query runs past
// its time limit — and the service answering the next query correctly after it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { startService } from '../helpers/service.js';
import { trafficFile, trafficRecords } from '../helpers/corpus.js';
import { freePort } from '../helpers/ports.js';

async function problemOf(response: Response, status: number): Promise<{ title: string; detail: string; code: string }> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  return (await response.json()) as { title: string; detail: string; code: string };
}

describe('api over HTTP: the store failing', function () {
  this.timeout(60_000);

  it('answers 503 problem+json naming the remote store when it is down: POST /ingest and GET /sparql', async () => {
    const port = await freePort();
    const service = await startService(['--store', `http://127.0.0.1:${port}/sparql`]);
    try {
      const ingest = await fetch(`${service.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-ld-session': 'down' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      const stored = await problemOf(ingest, 503);
      assert.equal(stored.title, 'Store unavailable');
      assert.equal(
        stored.detail,
        `cannot reach the remote store at http://127.0.0.1:${port} (ECONNREFUSED); nothing of this batch is acknowledged`,
      );
      const query = await fetch(`${service.url}/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`, {
        headers: { accept: 'application/sparql-results+json' },
      });
      const queried = await problemOf(query, 503);
      assert.equal(queried.code, 'store.unavailable');
      assert.equal(queried.detail, `cannot reach the remote store at http://127.0.0.1:${port} (ECONNREFUSED)`);
    } finally {
      service.child.kill('SIGTERM');
      await new Promise((resolve) => service.child.once('exit', resolve));
    }
  });

  it('answers 504 problem+json for a query past MCPLD_QUERY_TIMEOUT, then the next query correctly', async () => {
    // 2 s: the limit holds for every query, the one after the runaway too, which follows the worker's rebuild on a
    // machine that may be loaded; the runaway (the traffic's quads cubed) never ends within it.
    const app = await buildServer(readServiceConfig({}, { MCPLD_QUERY_TIMEOUT: '2000' }), { logger: false });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const ingested = await fetch(`${url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: readFileSync(trafficFile),
      });
      assert.equal(ingested.status, 200);
      const runaway = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
      const started = performance.now();
      const timedOut = await fetch(`${url}/sparql?query=${encodeURIComponent(runaway)}`, {
        headers: { accept: 'application/sparql-results+json' },
      });
      const problem = await problemOf(timedOut, 504);
      assert.equal(problem.code, 'query.timeout');
      assert.equal(problem.detail, 'the query ran longer than its limit of 2000 ms');
      assert.ok(performance.now() - started < 20_000, 'answered by its limit, not held');
      const calls = trafficRecords().filter((r) => r.msg['method'] === 'tools/call').length;
      const counted = await fetch(
        `${url}/sparql?query=${encodeURIComponent('SELECT (COUNT(?m) AS ?n) WHERE { ?m a mcp:CallToolRequest }')}`,
        { headers: { accept: 'text/csv' } },
      );
      assert.equal(counted.status, 200);
      assert.equal((await counted.text()).replace(/\r/g, ''), `n\n${calls}\n`);
    } finally {
      await app.close();
    }
  });
});
