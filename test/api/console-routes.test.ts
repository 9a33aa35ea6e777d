// The console's routes without a browser: the page and its assets (and what the page may load: its CSP), one message
// lowered from its own nodes for every message of every capture, its triples, and GET /events after a write.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { captureFiles, captureRecords, captures } from '../helpers/corpus.js';
import { appOverMemory, ingestFiles } from '../helpers/api-app.js';

describe('api: the console page, one message, and the events of writes', function () {
  this.timeout(120_000);
  let app: FastifyInstance;
  let store: EmbeddedStore;

  before(async () => {
    ({ app, store } = await appOverMemory());
    await ingestFiles(app, captureFiles());
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it('GET / is the console: HTML that may load and call this service only', async () => {
    const page = await app.inject({ method: 'GET', url: '/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<script type="module" src="\/console\/assets\/console.js">/);
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /connect-src 'self'/);
    assert.doesNotMatch(policy, /https?:/, 'no other origin');
    const script = await app.inject({ method: 'GET', url: '/console/assets/console.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    const again = await app.inject({
      method: 'GET',
      url: '/console/assets/console.js',
      headers: { 'if-none-match': String(script.headers['etag']) },
    });
    assert.equal(again.statusCode, 304);
    // Nothing in the bundle names another origin to fetch from: no CDN, no font service.
    for (const text of [script.body, (await app.inject({ method: 'GET', url: '/console/assets/console.css' })).body])
      assert.doesNotMatch(text, /\b(cdn|fonts\.googleapis|unpkg|jsdelivr)\b/);
  });

  it('a file the console does not have is a 404 problem, never a path on disk', async () => {
    for (const url of [
      '/console/assets/nope.js',
      '/console/assets/../../package.json',
      '/console/assets/%2e%2e/%2e%2e/package.json',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers['content-type']), /problem\+json/, url);
    }
  });

  it('GET /sessions/:id/messages/:order gives every message of every capture back exactly, as its capture record', async () => {
    for (const { file } of captures) {
      for (const record of captureRecords(file)) {
        const response = await app.inject({
          method: 'GET',
          url: `/sessions/${encodeURIComponent(record.session!)}/messages/${record.seq}`,
          headers: { accept: 'application/json' },
        });
        assert.equal(response.statusCode, 200, response.body);
        const lowered = response.json();
        assert.deepEqual(lowered.msg, record.msg, `${file} ${record.seq}`);
        assert.deepEqual(
          [lowered.session, lowered.seq, lowered.dir, lowered.ts],
          [record.session, record.seq, record.dir, record.ts],
        );
      }
    }
  });

  it('a message as N-Triples or Turtle; an unknown one is a 404 problem, a type it does not come in a 406', async () => {
    const [record] = captureRecords(captures[0]!.file);
    const url = `/sessions/${record!.session}/messages/${record!.seq}`;
    const triples = await app.inject({ method: 'GET', url, headers: { accept: 'application/n-triples' } });
    assert.equal(triples.statusCode, 200);
    assert.match(
      triples.body,
      /<https:\/\/w3id.org\/mcp-ld\/ns#order> "1"\^\^<http:\/\/www.w3.org\/2001\/XMLSchema#integer> \./,
    );
    assert.equal((await app.inject({ method: 'GET', url, headers: { accept: 'text/turtle' } })).statusCode, 200);
    const missing = await app.inject({
      method: 'GET',
      url: `/sessions/${record!.session}/messages/99999`,
      headers: { accept: 'application/json' },
    });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'message.unknown');
    assert.equal((await app.inject({ method: 'GET', url: `/sessions/no-such-session/messages/1` })).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url, headers: { accept: 'image/png' } })).statusCode, 406);
    assert.equal(
      (await app.inject({ method: 'GET', url: `/sessions/${record!.session}/messages/one` })).statusCode,
      400,
    );
  });

  it('GET /events: a change event naming the session, after an ingest', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const received = new Promise<string>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/events' }, (response) => {
        assert.match(String(response.headers['content-type']), /^text\/event-stream/);
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('event: change')) {
            request.destroy();
            resolve(text);
          }
        });
        // Once the stream is open, a write.
        const record = {
          seq: 1,
          ts: '2026-12-02T10:00:00.000Z',
          dir: 'c2s',
          server: 'events-test',
          session: 'events-session',
          msg: { jsonrpc: '2.0', id: 1, method: 'ping' },
        };
        void app.inject({
          method: 'POST',
          url: '/ingest',
          headers: { 'content-type': 'application/x-ndjson' },
          payload: `${JSON.stringify(record)}\n`,
        });
      });
      request.on('error', reject);
    });
    const text = await received;
    const data = /event: change\ndata: (.*)\n/.exec(text)![1]!;
    assert.deepEqual(JSON.parse(data), { sessions: ['events-session'] });
  });
});
