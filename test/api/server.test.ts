import assert from 'node:assert/strict';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';

describe('api: health and errors', () => {
  const config = readServiceConfig({}, {});

  it('GET /health answers 200 with the store it runs on', async () => {
    const app = await buildServer(config, { logger: false });
    const response = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok', version: '0.1.0', store: 'embedded (memory only)' });
    await app.close();
  });

  it('an unknown route is a 404 problem+json', async () => {
    const app = await buildServer(config, { logger: false });
    const response = await app.inject({ method: 'GET', url: '/nowhere?x=1' });
    assert.equal(response.statusCode, 404);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.deepEqual(response.json(), { type: 'about:blank', title: 'Not found', status: 404, detail: 'no route GET /nowhere' });
    await app.close();
  });
});
