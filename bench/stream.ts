// The streaming benchmark: three large answers of `mcp-ld serve --data` — a SELECT of 1M rows, a CONSTRUCT of a whole
// session of 50,000 messages, GET /sessions/{id} of that session — each with its time to first byte, total time and
// the serving process's peak RSS, beside Oxigraph's own query of the same answer in a process of its own (buffered,
// no HTTP), in the same run.
//   npm run bench:stream [-- --messages 50000 --rows 1000000]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { figureLine } from './figures.js';
import { buildSessionWorkload, liftBatches } from './store-workload.js';
import { startService } from '../test/helpers/service.js';
import { cliPath } from '../test/helpers/run-cli.js';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '50000' }, rows: { type: 'string', default: '1000000' } },
});
const messages = Number(values.messages);
const rows = Number(values.rows);
const session = 'stream-bench';
const graph = `urn:mcp-ld:session/${session}`;

interface Case {
  name: string;
  path: string;
  accept: string;
  /** The same answer from Oxigraph in process: a query with its results format, or a dump of the session graph. */
  engine: { query: string; format: string } | { dump: string };
}

const selectAll = `SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT ${rows}`;
const constructSession = `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${graph}> { ?s ?p ?o } }`;
const cases: Case[] = [
  {
    name: `SELECT of ${rows} rows`,
    path: `/sparql?query=${encodeURIComponent(selectAll)}`,
    accept: 'application/sparql-results+json',
    engine: { query: selectAll, format: 'application/sparql-results+json' },
  },
  {
    name: `CONSTRUCT of a session of ${messages} messages`,
    path: `/sparql?query=${encodeURIComponent(constructSession)}`,
    accept: 'application/n-triples',
    engine: { query: constructSession, format: 'application/n-triples' },
  },
  {
    name: `GET /sessions/{id} of ${messages} messages`,
    path: `/sessions/${session}`,
    accept: 'application/n-quads',
    engine: { dump: graph },
  },
];

interface Measure {
  status: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  peakMiB: number;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The peak RSS of a process (all its threads) since `resetPeak`, in MiB. */
function peakMiB(pid: number | 'self'): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) / 1024;
}

function resetPeak(pid: number | 'self'): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** One request, its body read as it arrives (node:http: no time limit on the headers, which come after the query
 * ran). */
function measure(url: string, c: Case, pid: number): Promise<Measure> {
  resetPeak(pid);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url + c.path, { headers: { accept: c.accept } }, (response) => {
      let firstByteMs = 0;
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          bytes,
          firstByteMs,
          totalMs: performance.now() - started,
          peakMiB: peakMiB(pid),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The engine's own answers in a process of its own: load the N-Quads, then per case the query and its peak RSS. */
const engineScript = `
import { readFileSync, writeFileSync } from 'node:fs';
import oxigraph from 'oxigraph';
const [file, casesJson] = process.argv.slice(1);
const store = new oxigraph.Store();
store.load(readFileSync(file), { format: 'application/n-quads', lenient: true, no_transaction: true });
const out = [];
for (const c of JSON.parse(casesJson)) {
  writeFileSync('/proc/self/clear_refs', '5');
  const started = performance.now();
  const text = c.dump ? store.dump({ format: 'application/n-quads', from_graph_name: oxigraph.namedNode(c.dump) }) : store.query(c.query, { results_format: c.format });
  const ms = performance.now() - started;
  const peak = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
  out.push({ ms, peakMiB: peak, bytes: Buffer.byteLength(text) });
}
process.stdout.write(JSON.stringify(out));
`;

function runEngine(nquadsFile: string): Promise<{ ms: number; peakMiB: number; bytes: number }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', engineScript, nquadsFile, JSON.stringify(cases.map((c) => c.engine))],
      { cwd: path.dirname(cliPath), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { ms: number; peakMiB: number; bytes: number }[])
        : reject(new Error(`the engine's process exited with ${code}`)),
    );
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpld-stream-bench-'));
try {
  const workload = buildSessionWorkload(messages, session);
  const jsonl = path.join(dir, 'session.jsonl');
  writeFileSync(jsonl, workload.text);
  const nquadsFile = path.join(dir, 'session.nq');
  const batches = liftBatches(workload.text, 5000);
  writeFileSync(nquadsFile, batches.map((b) => b.nquads).join(''));
  const quads = batches.reduce((sum, b) => sum + b.quads, 0);
  const data = path.join(dir, 'data');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'ingest', jsonl, '--data', data, '--quiet'], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mcp-ld ingest exited with ${code}`))));
  });
  say(
    `stream: one session of ${messages} messages (${quads} quads lifted), mcp-ld serve --data on loopback; machine: ${os.cpus().length} cores, node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const limits = {
    MCPLD_MAX_RESULT_ROWS: String(4 * quads),
    MCPLD_MAX_RESULT_BYTES: String(4 * 1024 ** 3 - 1),
    MCPLD_QUERY_TIMEOUT: '1800000',
  };
  const { child, url } = await startService(['--data', data], limits);
  const measured: Measure[] = [];
  try {
    for (const c of cases) measured.push(await measure(url, c, child.pid!));
  } finally {
    child.kill();
  }
  const engine = await runEngine(nquadsFile);
  cases.forEach((c, i) => {
    const ours = measured[i]!;
    const theirs = engine[i]!;
    const baseline = 'Oxigraph in process, buffered';
    say(
      `${c.name}: HTTP ${ours.status}, ${(ours.bytes / 1024 ** 2).toFixed(1)} MiB (engine's text ${(theirs.bytes / 1024 ** 2).toFixed(1)} MiB)`,
    );
    say(
      '  ' +
        figureLine(
          { name: 'time to first byte', value: ours.firstByteMs / 1000, unit: 's' },
          { name: baseline, value: theirs.ms / 1000, unit: 's' },
          'lower',
        ),
    );
    say(
      '  ' +
        figureLine(
          { name: 'total time', value: ours.totalMs / 1000, unit: 's' },
          { name: baseline, value: theirs.ms / 1000, unit: 's' },
          'lower',
        ),
    );
    say(
      '  ' +
        figureLine(
          { name: 'peak RSS of mcp-ld serve', value: ours.peakMiB, unit: 'MiB' },
          { name: baseline, value: theirs.peakMiB, unit: 'MiB' },
          'lower',
        ),
    );
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
