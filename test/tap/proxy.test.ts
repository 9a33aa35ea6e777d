import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliPath, runCli } from '../helpers/run-cli.js';
import { everythingServer, runHttpSession, toolCalls } from '../helpers/mcp-session.js';
import { freePort } from '../helpers/ports.js';
import { startUntil } from '../helpers/http-processes.js';

describe('proxy: a recording reverse proxy for MCP over HTTP', function () {
  this.timeout(120_000);
  let server: ChildProcess;
  let target: string;

  before(async () => {
    const port = await freePort();
    ({ child: server } = await startUntil(process.execPath, [everythingServer, 'streamableHttp'], /listening on port/, {
      ...process.env,
      PORT: String(port),
    }));
    target = `http://127.0.0.1:${port}`;
  });
  after(() => server?.kill());

  it('gives the SDK client the same results as without it, and records every message under the Mcp-Session-Id', async () => {
    const direct = await runHttpSession(`${target}/mcp`);
    const capture = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-ld-proxy-')), 'http.jsonl');
    const { child: proxy, match } = await startUntil(
      process.execPath,
      [cliPath, 'proxy', '--target', target, '--port', '0', '--capture', capture],
      /at http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const proxied = await runHttpSession(`http://127.0.0.1:${match[1]}/mcp`);
    await new Promise((resolve) => {
      proxy.on('exit', resolve);
      proxy.kill('SIGTERM');
    });
    assert.deepStrictEqual(proxied, direct);

    const records = readFileSync(capture, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir: string; session: string; msg: Record<string, unknown> });
    const sessions = new Set(records.map((r) => r.session));
    assert.equal(sessions.size, 1, `one MCP session: ${[...sessions].join(', ')}`);
    assert.match([...sessions][0]!, /^[0-9a-f-]{36}$/, 'the server-assigned Mcp-Session-Id');
    const sent = records.filter((r) => r.dir === 'c2s').map((r) => r.msg);
    assert.equal(sent[0]!['method'], 'initialize');
    assert.deepEqual(
      sent.filter((m) => m['method'] === 'tools/call').map((m) => (m['params'] as { name: string }).name),
      toolCalls.map((c) => c.name),
    );
    const answered = new Set(
      records
        .filter((r) => r.dir === 's2c' && 'id' in r.msg && !('method' in r.msg))
        .map((r) => JSON.stringify(r.msg['id'])),
    );
    for (const request of sent.filter((m) => 'id' in m))
      assert.ok(answered.has(JSON.stringify(request['id'])), `response to ${String(request['method'])}`);
  });

  it('refuses an --session-idle that is not a number of seconds, with a usage error', async () => {
    for (const value of ['soon', '-1', '']) {
      const result = await runCli([
        'proxy',
        '--target',
        'http://127.0.0.1:9',
        '--port',
        '0',
        `--session-idle=${value}`,
      ]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, new RegExp(`--session-idle must be a number of seconds, not "${value}"`));
    }
  });

  it('answers 502 problem+json when the target cannot be reached', async () => {
    const deadPort = await freePort();
    const { child: proxy, match } = await startUntil(
      process.execPath,
      [cliPath, 'proxy', '--target', `http://127.0.0.1:${deadPort}`, '--port', '0'],
      /at http:\/\/127\.0\.0\.1:(\d+)/,
    );
    try {
      const response = await fetch(`http://127.0.0.1:${match[1]}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      assert.equal(response.status, 502);
      assert.match((await response.json()).detail, /cannot be reached/);
    } finally {
      proxy.kill('SIGTERM');
    }
  });

  it('relays bodies byte for byte and records each exactly: not UTF-8, a key given twice, SSE with characters split across chunks', async () => {
    const message = Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"t":"é☃𝄞"}}');
    // An upstream that echoes JSON bodies, and answers /sse with one event sent a byte at a time.
    const upstream = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', async () => {
        if (request.url === '/sse') {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const byte of Buffer.concat([
            Buffer.from('event: message\r\ndata: '),
            message,
            Buffer.from('\r\n\r\n'),
          ])) {
            response.write(Buffer.of(byte));
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          return response.end();
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const targetPort = (upstream.address() as AddressInfo).port;
    const capture = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-ld-proxy-')), 'exact.jsonl');
    const { child: proxy, match } = await startUntil(
      process.execPath,
      [
        cliPath,
        'proxy',
        '--target',
        `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
        '--port',
        '0',
        '--capture',
        capture,
      ],
      /at http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const notUtf8 = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
      Buffer.of(0xed, 0xa0, 0x80),
      Buffer.from('"}}'),
    ]);
    const batch = '[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping","id":4}]';
    try {
      const proxied = `http://127.0.0.1:${match[1]}`;
      for (const body of [notUtf8, Buffer.from(batch)]) {
        const response = await fetch(`${proxied}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        assert.ok(Buffer.from(await response.arrayBuffer()).equals(body), 'the answer is the body, byte for byte');
      }
      const sse = await fetch(`${proxied}/sse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":7,"method":"ping"}',
      });
      assert.match(
        await sse.text(),
        /^event: message\r\ndata: \{"jsonrpc":"2.0","id":7,"result":\{"t":"é☃𝄞"\}\}\r\n\r\n$/,
      );
    } finally {
      await new Promise((resolve) => {
        proxy.on('exit', resolve);
        proxy.kill('SIGTERM');
      });
      upstream.close();
    }
    const records = readFileSync(capture, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir: string; raw?: string; encoding?: string; msg?: unknown });
    const raw = records.filter((r) => r.raw !== undefined).map(({ dir, raw, encoding }) => ({ dir, raw, encoding }));
    // Each body twice (sent, then echoed back): kept whole, the batch too (its members cannot be split without losing a
    // key).
    const notUtf8Base64 = notUtf8.toString('base64');
    assert.deepEqual(
      raw.map((r) => JSON.stringify(r)).sort(),
      [
        { dir: 'c2s', raw: notUtf8Base64, encoding: 'base64' },
        { dir: 's2c', raw: notUtf8Base64, encoding: 'base64' },
        { dir: 'c2s', raw: batch },
        { dir: 's2c', raw: batch },
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
    );
    const answer = records.find((r) => r.dir === 's2c' && JSON.stringify(r.msg) === message.toString()) as
      { server?: string } | undefined;
    assert.ok(answer, 'the SSE message, every character whole');
    // An answer that names no server: the session is named by the URL the proxy forwards to.
    assert.equal(answer.server, `http://127.0.0.1:${targetPort}`);
  });
});
