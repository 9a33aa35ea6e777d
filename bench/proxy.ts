// The proxy benchmark: what `mcp-ld proxy` adds to a real 2026-07-28 client's calls (v2 client and server 2.4.0 on
// loopback, test/helpers/modern-server.ts), each figure beside the same calls made directly, in the same run:
// sequential JSON answers (`echo`), SSE answers (`count`, with progress), and calls at once, with the proxy
// recording into a data directory.
//   npm run bench:proxy [-- --calls N]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { figureLine } from './figures.js';
import { startModernServer } from '../test/helpers/modern-server.js';
import { startProxy, stop } from '../test/helpers/http-processes.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '400' } } });
const calls = Number(values.calls);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Per-call latencies (ms) of `calls` sequential calls of each kind, and the wall time of `calls` calls 8 at a time. */
async function measure(url: string): Promise<{ json: number[]; sse: number[]; parallelMs: number }> {
  const client = new Client({ name: 'mcp-ld-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const timed = async (call: () => Promise<unknown>) => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  };
  try {
    for (let i = 0; i < 50; i++) await client.callTool({ name: 'echo', arguments: { message: 'warm-up' } });
    const json: number[] = [];
    for (let i = 0; i < calls; i++)
      json.push(await timed(() => client.callTool({ name: 'echo', arguments: { message: `call ${i}` } })));
    const sse: number[] = [];
    for (let i = 0; i < calls / 4; i++)
      sse.push(await timed(() => client.callTool({ name: 'count', arguments: { n: 3 } }, { onprogress: () => {} })));
    const start = performance.now();
    for (let i = 0; i < calls; i += 8)
      await Promise.all(
        Array.from({ length: 8 }, (_, j) =>
          client.callTool({ name: 'echo', arguments: { message: `at once ${i + j}` } }),
        ),
      );
    return { json: json.sort((a, b) => a - b), sse: sse.sort((a, b) => a - b), parallelMs: performance.now() - start };
  } finally {
    await client.close();
  }
}

const server = await startModernServer();
try {
  const direct = await measure(server.url);
  const data = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-ld-bench-proxy-')), 'graph');
  // The hop alone (nothing recorded), then recording into a data directory: what recording adds to the hop.
  const runs: [string, string[]][] = [
    ['through the proxy, recording nothing', []],
    ['through the proxy, recording into a data directory', ['--data', data]],
  ];
  console.log(
    `${calls} sequential calls each, ${calls} calls 8 at a time, direct and ${runs.map(([name]) => name).join(', and ')}`,
  );
  for (const [name, args] of runs) {
    const proxy = await startProxy(new URL(server.url).origin, args);
    const proxied = await measure(`${proxy.origin}/mcp`);
    await stop(proxy.child);
    for (const p of [50, 99]) {
      console.log(
        figureLine(
          { name: `JSON answer p${p} ${name}`, value: percentile(proxied.json, p), unit: 'ms' },
          { name: 'direct', value: percentile(direct.json, p), unit: 'ms' },
          'lower',
        ),
      );
      console.log(
        figureLine(
          { name: `SSE answer (3 progress events) p${p} ${name}`, value: percentile(proxied.sse, p), unit: 'ms' },
          { name: 'direct', value: percentile(direct.sse, p), unit: 'ms' },
          'lower',
        ),
      );
    }
    console.log(
      figureLine(
        { name: `calls 8 at a time ${name}`, value: (calls / proxied.parallelMs) * 1000, unit: 'requests/s' },
        { name: 'direct', value: (calls / direct.parallelMs) * 1000, unit: 'requests/s' },
        'higher',
      ),
    );
    console.log(proxy.output().trim());
  }
} finally {
  await server.close();
}
