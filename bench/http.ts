// The HTTP benchmark: requests/s and p99 latency of POST /convert, POST /ingest (NDJSON) and GET /sparql, driven by
// autocannon against `mcp-ld serve` on loopback with a loaded store, each printed beside the same work done
// in-process (the core functions the routes call, no HTTP): what the HTTP layer costs.
//   npm run bench:http [-- --sessions N --seconds S --connections C]
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { packageRoot } from '../src/core/paths.js';
import { loadSchema } from '../src/schema/index.js';
import { Lifter } from '../src/lift/lifter.js';
import { convertText } from '../src/lift/convert.js';
import { serialize } from '../src/rdf/serialize.js';
import { quadsToNQuads } from '../src/rdf/nquads.js';
import { EmbeddedStore } from '../src/store/embedded-store.js';
import { runQuery } from '../src/query/index.js';
import { figureLine } from './figures.js';
import { startService } from '../test/helpers/service.js';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '8' },
  },
});
const sessions = Number(values.sessions);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const capture = readFileSync(path.join(packageRoot, 'test', 'fixtures', 'traffic', 'traffic-everything.jsonl'), 'utf8');
const message =
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"benchmark"}}}';
/** A capture re-keyed to a fresh session, as NDJSON. */
const rekeyed = (session: string) => capture.replace(/"session":"[^"]+"/g, `"session":"${session}"`);
const query =
  'SELECT ?name (COUNT(*) AS ?n) WHERE { ?m a mcp:CallToolRequest ; jrpc:hasParameters/mcp:hasName ?name } GROUP BY ?name';

interface Load {
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

async function load(options: autocannon.Options): Promise<Load> {
  const result = await autocannon({ connections, duration: seconds, ...options });
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** The same work in-process for `seconds`: operations per second and p99 of one operation, in ms. */
async function inProcess(operation: () => Promise<unknown>): Promise<{ perSecond: number; p99: number }> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await operation();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { perSecond: times.length / seconds, p99: times[Math.floor(times.length * 0.99)] ?? 0 };
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

const { child, url } = await startService();
try {
  say(
    `http: ${connections} connections, ${seconds} s per route; store loaded with ${sessions} sessions of the real capture (${sessions * 220} messages); machine: ${os.cpus().length} cores, node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let i = 0; i < sessions; i++) {
    const response = await fetch(`${url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: rekeyed(`load-${i}`),
    });
    if (!response.ok) throw new Error(`loading the store: ${response.status} ${await response.text()}`);
  }

  // In-process baselines: the core the routes call, with an embedded store loaded the same way.
  const schema = loadSchema();
  const store = await EmbeddedStore.open({});
  const lifter = new Lifter(schema);
  for (let i = 0; i < sessions; i++)
    await store.ingest(quadsToNQuads((await convertText(lifter, rekeyed(`load-${i}`))).quads));

  const convertLoad = await load({
    url: `${url}/convert?session=bench`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: message,
  });
  const convertCore = await inProcess(async () =>
    serialize((await convertText(new Lifter(schema, { defaultSession: 'bench' }), message)).quads, 'nquads'),
  );
  say(
    figureLine(
      { name: 'POST /convert', value: convertLoad.requestsPerSecond, unit: 'requests/s' },
      { name: 'in-process convertText + N-Quads', value: convertCore.perSecond, unit: 'requests/s' },
      'higher',
    ) + `; p99 ${convertLoad.p99} ms (in-process ${convertCore.p99.toFixed(2)} ms); errors ${convertLoad.errors}`,
  );

  let n = 0;
  const ingestLoad = await load({
    url: `${url}/ingest`,
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    setupClient: (client) => client.setBody(rekeyed(`bench-${n++}`)),
  });
  let m = 0;
  const ingestCore = await inProcess(async () => {
    const { quads } = await convertText(lifter, rekeyed(`core-${m++}`));
    await store.ingest(quadsToNQuads(quads));
  });
  say(
    figureLine(
      { name: 'POST /ingest (NDJSON, 220 messages)', value: ingestLoad.requestsPerSecond, unit: 'requests/s' },
      { name: 'in-process lift + ingest', value: ingestCore.perSecond, unit: 'requests/s' },
      'higher',
    ) +
      `; ${(ingestLoad.requestsPerSecond * 220).toFixed(0)} messages/s; p99 ${ingestLoad.p99} ms (in-process ${ingestCore.p99.toFixed(1)} ms); errors ${ingestLoad.errors}`,
  );

  const sparqlLoad = await load({
    url: `${url}/sparql?query=${encodeURIComponent(query)}`,
    headers: { accept: 'application/sparql-results+json' },
  });
  const sparqlCore = await inProcess(() => runQuery(store, query));
  say(
    figureLine(
      { name: 'GET /sparql (tool calls per tool)', value: sparqlLoad.requestsPerSecond, unit: 'requests/s' },
      { name: 'in-process runQuery', value: sparqlCore.perSecond, unit: 'requests/s' },
      'higher',
    ) + `; p99 ${sparqlLoad.p99} ms (in-process ${sparqlCore.p99.toFixed(1)} ms); errors ${sparqlLoad.errors}`,
  );
  await store.close();
} finally {
  child.kill('SIGTERM');
}
