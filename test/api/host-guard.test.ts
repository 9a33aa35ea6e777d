import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig, type Environment } from '../../src/core/config.js';

const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

describe('api: requests from elsewhere (DNS rebinding, cross-site writes)', () => {
  const apps: FastifyInstance[] = [];
  const server = async (env: Environment = {}, host?: string) => {
    const app = await buildServer(readServiceConfig(host ? { host } : {}, env), { logger: false });
    apps.push(app);
    return app;
  };
  after(() => Promise.all(apps.map((app) => app.close())));

  it('answers only requests addressed to it: 421 problem+json for another Host (DNS rebinding), unless allowed', async () => {
    const app = await server();
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080']) {
      assert.equal((await app.inject({ method: 'GET', url: '/health', headers: { host } })).statusCode, 200, host);
    }
    const evil = await app.inject({ method: 'GET', url: '/health', headers: { host: 'evil.example' } });
    assert.equal(evil.statusCode, 421);
    assert.match(String(evil.headers['content-type']), /^application\/problem\+json/);
    assert.match(evil.json().detail, /MCPLD_ALLOWED_HOSTS/);
    const allowed = await server({ MCPLD_ALLOWED_HOSTS: 'mcp.internal' });
    assert.equal(
      (await allowed.inject({ method: 'GET', url: '/health', headers: { host: 'mcp.internal:8080' } })).statusCode,
      200,
    );
    // Listening on every interface, it is addressed by names it cannot know.
    const everywhere = await server({}, '0.0.0.0');
    assert.equal(
      (await everywhere.inject({ method: 'GET', url: '/health', headers: { host: 'box.lan:8080' } })).statusCode,
      200,
    );
  });

  it('refuses a write from another web page (403) and a text/plain body (415), and stores nothing', async () => {
    const app = await server();
    const sessions = async () =>
      ((await app.inject({ method: 'GET', url: '/sessions' })).json() as { sessions: unknown[] }).sessions.length;
    const before = await sessions();
    const plain = await app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'content-type': 'text/plain' },
      payload: ping,
    });
    assert.equal(plain.statusCode, 415);
    const crossSite = await app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: ping,
    });
    assert.equal(crossSite.statusCode, 403);
    assert.match(crossSite.json().detail, /evil\.example/);
    assert.equal(await sessions(), before, 'nothing was stored');
    const local = await app.inject({
      method: 'POST',
      url: '/ingest',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:8080' },
      payload: ping,
    });
    assert.equal(local.statusCode, 200, local.body);
    // Reads from a page are CORS's to allow or not; the guard leaves them.
    assert.equal(
      (await app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example' } })).statusCode,
      200,
    );
  });
});
