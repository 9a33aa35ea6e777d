// The API in process over a fresh in-memory embedded store (requests by fastify's inject, no socket), and captures
// ingested into it through POST /ingest, as a client sends them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';

/** A server configured by `env` (as MCPLD_* variables) over an empty in-memory store; close both after. */
export async function appOverMemory(
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; store: EmbeddedStore }> {
  const store = await EmbeddedStore.open({});
  const app = await buildServer(readServiceConfig({}, env), { logger: false, store });
  return { app, store };
}

/** POSTs each capture file to /ingest as JSON Lines (with `headers`, e.g. the write token), each answered 200. */
export async function ingestFiles(
  app: FastifyInstance,
  files: string[],
  headers: Record<string, string> = {},
): Promise<void> {
  for (const file of files) {
    const response = await app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: readFileSync(file),
    });
    assert.equal(response.statusCode, 200, response.body);
  }
}

/** POSTs a SPARQL query (application/sparql-query) to /sparql, asking for `accept`. */
export function postQuery(app: FastifyInstance, query: string | Buffer, accept = 'application/sparql-results+json') {
  return app.inject({
    method: 'POST',
    url: '/sparql',
    headers: { 'content-type': 'application/sparql-query', accept },
    payload: query,
  });
}
