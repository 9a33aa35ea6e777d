import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
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
    assert.deepEqual(response.json(), {
      type: 'about:blank',
      title: 'Not found',
      status: 404,
      detail: 'no route GET /nowhere',
    });
    await app.close();
  });

  it('answers a URL that does not decode, headers too large and a body over the limit as problem+json, saying what', async () => {
    const app = await buildServer(readServiceConfig({ port: '0' }, { MCPLD_BODY_LIMIT: '1000' }), { logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const badUrl = await fetch(`${base}/sessions/%ff`);
      assert.equal(badUrl.status, 400);
      assert.match(badUrl.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(((await badUrl.json()) as { detail: string }).detail, /the URL \/sessions\/%ff does not decode/);
      const big = await fetch(`${base}/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: ' '.repeat(2000),
      });
      assert.equal(big.status, 413);
      assert.equal(
        ((await big.json()) as { detail: string }).detail,
        'the body is larger than the limit of this service (1000 bytes; see MCPLD_BODY_LIMIT)',
      );
      const headers = await new Promise<string>((resolve, reject) => {
        const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1', () =>
          socket.write(`GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`),
        );
        let answer = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
      assert.match(headers, /^HTTP\/1\.1 431 /);
      assert.match(headers, /Content-Type: application\/problem\+json/);
      assert.match(headers, /"status":431/);
    } finally {
      await app.close();
    }
  });
});
