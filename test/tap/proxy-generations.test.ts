import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { startEverything2025, startProxy, stop } from '../helpers/http-processes.js';
import { runLegacySseSession, runModernSession, runStreamable2025Session } from '../helpers/mcp-generations.js';
import { startModernServer, type ModernServer } from '../helpers/modern-server.js';

interface Captured {
  seq: number;
  dir: 'c2s' | 's2c';
  session: string;
  http?: { mcpMethod?: string; mcpName?: string };
  msg?: Record<string, unknown>;
  raw?: string;
}

function readCapture(file: string): Captured[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Captured);
}

function scratch(): { capture: string; data: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-generations-'));
  return { capture: path.join(dir, 'capture.jsonl'), data: path.join(dir, 'graph') };
}

/** Every request of `records` has its response, in the same session and the other direction. */
function assertAnswered(records: Captured[]): void {
  for (const request of records.filter((r) => r.msg && 'method' in r.msg && 'id' in r.msg)) {
    if (request.msg!['method'] === 'subscriptions/listen') continue; // never answered: cancelled
    const answer = records.find(
      (r) =>
        r.session === request.session &&
        r.dir !== request.dir &&
        r.msg &&
        !('method' in r.msg) &&
        JSON.stringify(r.msg['id']) === JSON.stringify(request.msg!['id']) &&
        r.seq > request.seq,
    );
    assert.ok(answer, `the answer to ${String(request.msg!['method'])} ${JSON.stringify(request.msg!['id'])}`);
  }
}

const methods = (records: Captured[], dir: 'c2s' | 's2c') =>
  records.filter((r) => r.dir === dir && r.msg && 'method' in r.msg).map((r) => r.msg!['method']);

/** The methods the client sends in the session of the "everything" server (the SSE and Streamable HTTP runs). */
const everythingClientMethods = [
  'initialize',
  'notifications/initialized',
  'tools/list',
  'tools/call',
  'tools/call',
  'tools/call',
  'tools/call',
  'prompts/get',
  'resources/read',
];
/** The methods that server sends back in it: progress of the long call, and its sampling request. */
const everythingServerMethods = [
  'notifications/progress',
  'notifications/progress',
  'notifications/progress',
  'sampling/createMessage',
];

/** The recorded graph shows each session of the capture with all its messages (`mcp-ld query --name sessions`).
 *  `report` is what the proxy printed: its tally says whether it stored the records or kept them in its spool. */
async function assertGraphHolds(data: string, records: Captured[], report: string): Promise<void> {
  const result = await runCli(['query', '--data', data, '--name', 'sessions', '--format', 'json']);
  assert.equal(result.code, 0, result.stderr);
  const rows = (JSON.parse(result.stdout) as { results: { bindings: Record<string, { value: string }>[] } }).results
    .bindings;
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.session, (counts.get(r.session) ?? 0) + 1);
  assert.deepEqual(
    new Map(rows.map((row) => [row['sessionId']!.value, Number(row['messages']!.value)])),
    counts,
    `the sessions in the graph; the proxy said:\n${report}`,
  );
}

/**
 * Runs a session against a fresh server-everything 2025.5.12 in `mode` directly, then another through the proxy
 * (recording into a capture file and a data directory): each run gets a server of its own (the `sse` one serves one
 * connection, then exits).
 */
async function directThenProxied<T>(mode: 'sse' | 'streamableHttp', path: string, run: (url: string) => Promise<T>) {
  let started = await startEverything2025(mode);
  let direct: T;
  try {
    direct = await run(`${started.origin}${path}`);
  } finally {
    await stop(started.child);
  }
  started = await startEverything2025(mode);
  const files = scratch();
  try {
    const proxy = await startProxy(started.origin, ['--capture', files.capture, '--data', files.data]);
    const proxied = await run(`${proxy.origin}${path}`);
    assert.equal(await stop(proxy.child), 0, proxy.output());
    return { direct, proxied, proxy, records: readCapture(files.capture), data: files.data };
  } finally {
    await stop(started.child);
  }
}

describe('proxy: records every HTTP transport generation, each with the SDKs that speak it', function () {
  this.timeout(120_000);

  describe('HTTP+SSE of 2024-11-05 (SDK 1.0.4 client, server-everything 2025.5.12 `sse` on SDK 1.11.2)', () => {
    it("gives the client the results it gets without the proxy, and records every message under the endpoint's sessionId", async () => {
      const { direct, proxied, proxy, records, data } = await directThenProxied('sse', '/sse', runLegacySseSession);
      assert.deepStrictEqual(
        { ...proxied, sessionId: null, endpoint: '' },
        { ...direct, sessionId: null, endpoint: '' },
      );
      assert.equal(
        new URL(proxied.endpoint).origin,
        proxy.origin,
        "the relative endpoint took the client's POSTs through the proxy",
      );
      assert.deepEqual([...new Set(records.map((r) => r.session))], [proxied.sessionId]);
      assert.ok(
        records.every((r) => r.msg !== undefined),
        'only JSON-RPC messages: the endpoint event is not one',
      );
      assert.deepEqual(methods(records, 'c2s'), everythingClientMethods);
      assert.deepEqual(methods(records, 's2c'), everythingServerMethods);
      assertAnswered(records);
      assert.equal(records.length, 22);
      await assertGraphHolds(data, records, proxy.output());
    });
  });

  describe('HTTP+SSE endpoint events', () => {
    /** An upstream whose GET /sse/<case> announces an endpoint (sent a byte at a time) after a keep-alive comment,
     *  once `go` says the comment reached the client, then one message; POSTs answer 202. */
    function endpointServer(endpoints: Record<string, (origin: string) => string>, go: () => Promise<void>) {
      return http.createServer((request, response) => {
        if (request.method === 'POST') {
          request.resume();
          request.on('end', () => response.writeHead(202).end('Accepted'));
          return;
        }
        const origin = `http://${request.headers.host}`;
        const endpoint = endpoints[request.url!.split('/')[2]!]!(origin);
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(': keep-alive\n\n');
        void go().then(async () => {
          for (const byte of Buffer.from(`event: endpoint\r\ndata: ${endpoint}\r\n\r\n`)) {
            response.write(Buffer.of(byte));
            await new Promise((resolve) => setImmediate(resolve));
          }
          response.end(
            'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\n',
          );
        });
      });
    }

    it("points an endpoint at the target's origin at the proxy, passes a relative one or another origin's byte for byte, holds back no keep-alive, and records under its sessionId", async () => {
      let commentSeen: () => void = () => {};
      const upstream = endpointServer(
        {
          absolute: (origin) => `${origin}/message?sessionId=abs`,
          relative: () => '/message?sessionId=rel',
          elsewhere: () => 'http://elsewhere.invalid:9/message?sessionId=other',
        },
        () => new Promise<void>((resolve) => (commentSeen = resolve)),
      );
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      const targetOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      const { capture } = scratch();
      const proxy = await startProxy(targetOrigin, ['--capture', capture]);
      const streams: Record<string, string> = {};
      try {
        for (const name of ['absolute', 'relative', 'elsewhere']) {
          const response = await fetch(`${proxy.origin}/sse/${name}`);
          const reader = response.body!.getReader();
          let text = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            text += Buffer.from(value).toString('utf8');
            // The comment arrives while the upstream still waits for it: nothing before an event is held back.
            if (text === ': keep-alive\n\n') commentSeen();
          }
          streams[name] = text;
        }
        const posted = await fetch(`${proxy.origin}/message?sessionId=abs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        });
        assert.equal(posted.status, 202);
      } finally {
        assert.equal(await stop(proxy.child), 0, proxy.output());
        upstream.close();
      }
      const event = (endpoint: string) =>
        `: keep-alive\n\nevent: endpoint\r\ndata: ${endpoint}\r\n\r\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\n`;
      assert.deepEqual(streams, {
        absolute: event(`${proxy.origin}/message?sessionId=abs`),
        relative: event('/message?sessionId=rel'),
        elsewhere: event('http://elsewhere.invalid:9/message?sessionId=other'),
      });
      const records = readCapture(capture);
      assert.deepEqual(
        records.map((r) => [r.session, r.dir, r.msg!['method']]),
        [
          ['abs', 's2c', 'notifications/message'],
          ['rel', 's2c', 'notifications/message'],
          ['other', 's2c', 'notifications/message'],
          ['abs', 'c2s', 'ping'],
        ],
      );
    });
  });

  describe('Streamable HTTP of 2025-03-26 (SDK 1.11.2 client, server-everything 2025.5.12 `streamableHttp`)', () => {
    it('gives the client the same results, and records under the Mcp-Session-Id every message, those of the GET stream too; DELETE ends it and records nothing', async () => {
      // terminateSession() fails unless the DELETE's answer came back through the proxy.
      const { direct, proxied, proxy, records, data } = await directThenProxied(
        'streamableHttp',
        '/mcp',
        runStreamable2025Session,
      );
      // The server sends the long call's progress on the standalone GET stream and its result on the POST's, and the
      // SDK drops a progress notification that comes after the result: how many the client sees depends on which
      // stream is read first, with or without the proxy (once in CI the third came after the result through it). The
      // proxy relays and records all three (the server's methods below).
      const seen = (transcript: typeof direct) => ({ ...transcript, sessionId: '', progress: [] });
      assert.deepStrictEqual(seen(proxied), seen(direct));
      for (const { progress } of [direct, proxied]) assert.deepEqual(progress, [1, 2, 3].slice(0, progress.length));
      assert.match(proxied.sessionId ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual([...new Set(records.map((r) => r.session))], [proxied.sessionId]);
      // The server sends its progress and its sampling request on the standalone GET stream, not on the POST's.
      assert.deepEqual(methods(records, 's2c'), everythingServerMethods);
      assert.deepEqual(methods(records, 'c2s'), everythingClientMethods);
      assertAnswered(records);
      assert.equal(records.length, 22, 'the DELETE added no record');
      await assertGraphHolds(data, records, proxy.output());
    });
  });

  describe('Streamable HTTP of 2026-07-28 (v2 client and server 2.4.0): no session header', () => {
    let server: ModernServer | undefined;
    before(async () => {
      server = await startModernServer();
    });
    after(async () => server?.close());

    it("gives the client the same results, records one session for all the connections of one client, and each request's Mcp-Method and Mcp-Name", async () => {
      const direct = await runModernSession(server!.url);
      const { capture, data } = scratch();
      const proxy = await startProxy(new URL(server!.url).origin, ['--capture', capture, '--data', data]);
      // The client spreads its requests over several connections (its listen stream, its pool, two calls at once).
      const proxied = await runModernSession(`${proxy.origin}/mcp`);
      assert.equal(await stop(proxy.child), 0, proxy.output());

      assert.deepStrictEqual(proxied, direct);
      assert.equal(proxied.listChanged, 1);
      const records = readCapture(capture);
      assert.equal(new Set(records.map((r) => r.session)).size, 1, 'one session');
      assertAnswered(records);
      for (const r of records.filter((r) => r.dir === 'c2s' && r.msg && 'id' in r.msg)) {
        const params = r.msg!['params'] as Record<string, unknown>;
        const name = ['tools/call', 'prompts/get', 'resources/read'].includes(r.msg!['method'] as string)
          ? { mcpName: params['name'] ?? params['uri'] }
          : {};
        assert.deepEqual(
          r.http,
          { mcpMethod: r.msg!['method'], ...name },
          `the headers of ${String(r.msg!['method'])}`,
        );
      }
      assert.ok(
        records.every((r) => r.dir === 'c2s' || r.http === undefined),
        'headers of requests only',
      );
      // The multi-round-trip (a retry on a new connection) and the listen stream's notifications are in the session.
      assert.equal(
        records.filter(
          (r) =>
            r.dir === 'c2s' &&
            (r.msg?.['params'] as Record<string, unknown> | undefined)?.['inputResponses'] !== undefined,
        ).length,
        1,
      );
      assert.deepEqual(
        methods(records, 's2c').filter((m) => !String(m).startsWith('notifications/progress')),
        ['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed'],
      );
      await assertGraphHolds(data, records, proxy.output());

      const byName = await runCli(['query', '--data', data, '--format', 'csv', '-'], {
        input:
          'SELECT ?name (COUNT(*) AS ?requests) WHERE { ?m mld:mcpNameHeader ?name ; mld:mcpMethodHeader "tools/call" } GROUP BY ?name ORDER BY ?name',
      });
      assert.equal(byName.code, 0, byName.stderr);
      assert.equal(byName.stdout.replace(/\r/g, ''), 'name,requests\ncount,1\ndelete-note,2\necho,3\ntouch,1\n');
    });

    it("records two clients at once, each under a session of its own (its clientInfo), on the same connections' address", async () => {
      const { capture } = scratch();
      const proxy = await startProxy(new URL(server!.url).origin, ['--capture', capture]);
      const [first, second] = await Promise.all([
        runModernSession(`${proxy.origin}/mcp`, 'client-a'),
        runModernSession(`${proxy.origin}/mcp`, 'client-b'),
      ]);
      assert.equal(await stop(proxy.child), 0, proxy.output());
      assert.equal(first.listChanged >= 1 && second.listChanged >= 1, true);
      const records = readCapture(capture);
      const sessions = new Map<string, Set<string>>();
      for (const r of records.filter((r) => r.dir === 'c2s')) {
        const meta = (r.msg!['params'] as Record<string, Record<string, { name: string }>>)['_meta']!;
        const client = meta['io.modelcontextprotocol/clientInfo']!.name;
        sessions.set(r.session, (sessions.get(r.session) ?? new Set()).add(client));
      }
      assert.deepEqual([...sessions.values()].map((clients) => [...clients]).sort(), [['client-a'], ['client-b']]);
      assertAnswered(records);
    });
  });
});
