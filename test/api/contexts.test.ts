import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';
import { contextsDir } from '../../src/core/paths.js';
import { protocolVersions } from '../../src/schema/index.js';

describe('api: GET /contexts', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildServer(readServiceConfig({}, {}), { logger: false });
  });
  after(() => app.close());

  for (const name of [
    'mcp.jsonld',
    'messages/CallToolRequest.jsonld',
    '2026-07-28/messages/DiscoverRequest.jsonld',
    '2024-11-05/mcp.jsonld',
    '2025-11-25/json-rpc.jsonld',
  ]) {
    it(`serves /contexts/${name} as application/ld+json with an ETag, and 304 on If-None-Match`, async () => {
      const response = await app.inject({ method: 'GET', url: `/contexts/${name}` });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/ld\+json/);
      assert.equal(response.body, readFileSync(path.join(contextsDir, name), 'utf8'));
      const etag = response.headers['etag'];
      assert.ok(typeof etag === 'string' && etag.length > 2, 'has an ETag');
      const again = await app.inject({ method: 'GET', url: `/contexts/${name}`, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
    });
  }

  it('answers 404 problem+json for an unknown context', async () => {
    for (const url of [
      '/contexts/nothing.jsonld',
      '/contexts/messages/NoSuchRequest.jsonld',
      '/contexts/2099-01-01/mcp.jsonld',
      '/contexts/2026-07-28/messages/InitializeRequest.jsonld',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(response.json().status, 404);
    }
  });

  it('lists every context', async () => {
    const response = await app.inject({ method: 'GET', url: '/contexts' });
    assert.equal(response.statusCode, 200);
    const { contexts } = response.json() as { contexts: string[] };
    assert.ok(contexts.includes('/contexts/mcp.jsonld'));
    assert.ok(contexts.includes('/contexts/json-rpc.jsonld'));
    assert.ok(contexts.includes('/contexts/messages/CallToolResult.jsonld'));
    for (const version of protocolVersions) assert.ok(contexts.includes(`/contexts/${version}/mcp.jsonld`), version);
    assert.ok(contexts.includes('/contexts/2026-07-28/messages/SubscriptionsListenRequest.jsonld'));
  });
});
