// The service as a process, over real HTTP: a long NDJSON stream with bounded memory, and answers that survive
// kill -9 and a restart on the same data directory.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startService as serve } from '../helpers/service.js';
import { trafficFile } from '../helpers/corpus.js';

function memoryKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]);
}

async function countCalls(url: string): Promise<string> {
  const query =
    'SELECT ?name (COUNT(*) AS ?n) WHERE { ?m a mcp:CallToolRequest ; jrpc:hasParameters/mcp:hasName ?name } GROUP BY ?name ORDER BY ?name';
  const response = await fetch(`${url}/sparql`, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-query', accept: 'text/csv' },
    body: query,
  });
  assert.equal(response.status, 200);
  return response.text();
}

describe('api over HTTP, as a process', function () {
  this.timeout(180_000);

  it('ingests a 50,000-line NDJSON stream as it arrives: messages are stored before the body has ended', async () => {
    // A service that read the body whole could store nothing before its end. This one must store the first batches
    // while the client still holds the stream open; its peak RSS is printed beside the body size.
    const service = await serve(['--data', path.join(mkdtempSync(path.join(tmpdir(), 'mcp-ld-stream-')), 'data')]);
    try {
      const padding = 'x'.repeat(2000);
      const lineOf = (seq: number) =>
        JSON.stringify({
          seq,
          ts: '2026-11-29T00:00:00.000Z',
          dir: 'c2s',
          session: 'stream',
          msg: {
            jsonrpc: '2.0',
            id: seq,
            method: 'tools/call',
            params: { name: 'echo', arguments: { message: padding } },
          },
        }) + '\n';
      const lines = 50_000;
      const before = memoryKiB(service.child.pid!, 'VmRSS');
      let sent = 0;
      let storedWhileOpen = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === lines) return controller.close();
          if (sent === 5_000) {
            // Hold the body open until the service shows the session it has been storing.
            for (let tries = 0; tries < 200 && !storedWhileOpen; tries++) {
              const sessions = (await (await fetch(`${service.url}/sessions`)).json()) as {
                sessions: { id: string }[];
              };
              storedWhileOpen = sessions.sessions.some((session) => session.id === 'stream');
              if (!storedWhileOpen) await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
          let text = '';
          for (let i = 0; i < 500; i++) text += lineOf(++sent);
          controller.enqueue(new TextEncoder().encode(text));
        },
      });
      const response = await fetch(`${service.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body,
        duplex: 'half',
      } as RequestInit);
      const summary = await response.json();
      assert.equal(response.status, 200, JSON.stringify(summary));
      assert.equal(summary.messages, lines);
      assert.ok(storedWhileOpen, 'the first batches were stored while the body was still arriving');
      const bodyMiB = (lineOf(1).length * lines) / 2 ** 20;
      console.log(
        `      ${bodyMiB.toFixed(0)} MiB of NDJSON, stored as it arrived; the service's peak RSS grew by ${((memoryKiB(service.child.pid!, 'VmHWM') - before) / 1024).toFixed(0)} MiB (the store itself grew by ${summary.stored.quads} quads)`,
      );
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('gives the same answers after kill -9 and a restart on the same data directory', async () => {
    const data = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-ld-http-')), 'data');
    const first = await serve(['--data', data]);
    let answers: string;
    try {
      const response = await fetch(`${first.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: readFileSync(trafficFile),
      });
      assert.equal(response.status, 200);
      answers = await countCalls(first.url);
      assert.match(answers, /^name,n\r?\necho,/m);
    } finally {
      first.child.kill('SIGKILL');
    }
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await serve(['--data', data]);
    try {
      assert.equal(await countCalls(second.url), answers);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
