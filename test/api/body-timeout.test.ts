// A request body that stops arriving, over a raw socket: 408 problem+json and the connection closed once no byte came
// for MCPLD_BODY_TIMEOUT_MS; a stream that keeps sending for far longer than that is not cut off.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { readServiceConfig } from '../../src/core/config.js';

const timeoutMs = 1500;
const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;

/** Sends `head` and then nothing; resolves with what came back and when the connection closed (at most `waitMs`). */
function stall(
  port: number,
  head: string,
  waitMs: number,
): Promise<{ text: string; closedAfterMs: number | undefined }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    let text = '';
    const give = (closedAfterMs: number | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closedAfterMs });
    };
    const timer = setTimeout(() => give(undefined), waitMs);
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => give(performance.now() - started));
    socket.on('error', () => undefined);
    socket.write(head);
  });
}

function problemOf(text: string): { status: number; body: { title: string; detail: string; status: number } } {
  const [head, body] = text.split('\r\n\r\n');
  assert.match(head!, /^HTTP\/1\.1 408 /);
  assert.match(head!, /content-type: application\/problem\+json/i);
  return { status: 408, body: JSON.parse(body!) };
}

describe('api: a request body that stops arriving', function () {
  this.timeout(60_000);
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await buildServer(readServiceConfig({}, { MCPLD_BODY_TIMEOUT_MS: String(timeoutMs) }), { logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(() => app.close());

  it('is answered 408 problem+json and closed once no byte came for MCPLD_BODY_TIMEOUT_MS: a JSON body and an NDJSON stream', async () => {
    const json = await stall(
      port,
      `POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0"`,
      20_000,
    );
    assert.ok(json.closedAfterMs !== undefined, 'the connection was closed');
    assert.ok(
      json.closedAfterMs >= timeoutMs - 50 && json.closedAfterMs < 15_000,
      `closed after ${json.closedAfterMs} ms`,
    );
    const { body } = problemOf(json.text);
    assert.equal(body.title, 'Request timeout');
    assert.match(
      body.detail,
      /^the request body stopped arriving: no byte of it came for 1500 ms \(MCPLD_BODY_TIMEOUT_MS\)/,
    );

    const line = ping(1);
    const chunked = `POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\nMCP-LD-Session: stalled\r\nTransfer-Encoding: chunked\r\n\r\n${line.length.toString(16)}\r\n${line}\r\n5\r\n{"jso`;
    const stream = await stall(port, chunked, 20_000);
    assert.ok(
      stream.closedAfterMs !== undefined && stream.closedAfterMs >= timeoutMs - 50,
      `closed after ${stream.closedAfterMs} ms`,
    );
    problemOf(stream.text);

    // The service answers on.
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    assert.equal(health.status, 200);
  });

  it('does not cut off a streamed NDJSON ingest that keeps sending for several times the limit', async () => {
    const lines = 40;
    const gapMs = 150; // 40 lines over about 6 s: four times the limit, a tenth of it between lines
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/ingest?batch=1',
          headers: { 'content-type': 'application/x-ndjson', 'mcp-ld-session': 'steady' },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        },
      );
      request.on('error', reject);
      let sent = 0;
      const next = () => {
        request.write(ping(++sent));
        if (sent < lines) setTimeout(next, gapMs);
        else request.end();
      };
      next();
    });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(JSON.parse(answer.body).messages, lines);
  });

  it('leaves a request injected in-process alone (it has no network socket to stall)', async () => {
    const injected = await buildServer(readServiceConfig({}, { MCPLD_BODY_TIMEOUT_MS: '100' }), { logger: false });
    try {
      const health = await injected.inject({ method: 'GET', url: '/health' }); // a body no one reads: it never ends
      assert.equal(health.statusCode, 200);
      const ingested = await injected.inject({
        method: 'POST',
        url: '/ingest',
        headers: { 'content-type': 'application/json', 'mcp-ld-session': 'injected' },
        payload: ping(1),
      });
      assert.equal(ingested.statusCode, 200);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // ten time limits: a watcher on it would have fired
    } finally {
      await injected.close();
    }
  });
});
