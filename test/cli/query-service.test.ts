import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NamedQueries } from '../../src/query/index.js';
import { fixturesDir, trafficFile } from '../helpers/corpus.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startService, type Service } from '../helpers/service.js';

interface Results {
  head: { vars?: string[] };
  boolean?: boolean;
  results?: { bindings: Record<string, { type: string; value: string }>[] };
}

/**
 * SPARQL JSON results as a comparable value: the variables, and the rows in a fixed order (blank node labels aside).
 */
function comparable(stdout: string): unknown {
  const results = JSON.parse(stdout) as Results;
  if (results.boolean !== undefined) return results.boolean;
  const rows = results.results!.bindings.map((row) =>
    JSON.stringify(
      Object.entries(row)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, term]) => [name, term.type, term.type === 'bnode' ? '_' : term.value]),
    ),
  );
  return { vars: results.head.vars, rows: rows.sort() };
}

/** Runs the tasks `width` at a time. */
async function run<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

describe('cli: query --store against a running mcp-ld serve, as against Virtuoso', function () {
  this.timeout(300_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-query-service-'));
  const data = path.join(dir, 'data');
  const fromFile = path.join(dir, 'from.rq');
  const constructFile = path.join(dir, 'construct.rq');
  // The named queries of issue 15 (and others of other shapes: aggregates, paths, OPTIONALs, unknown keys), each
  // process a second or so; and queries that name their own dataset.
  const named = [
    'tool-calls',
    'tool-errors',
    'tool-inventory',
    'sessions',
    'slowest-requests',
    'messages-per-method',
    'protocol-versions',
    'latency-by-method',
    'unknown-keys',
    'errors',
  ];
  const runs: [string, string[]][] = [
    ...named.map((name): [string, string[]] => [name, ['--name', name]]),
    ['FROM <urn:nope>', [fromFile]],
    ['--session', ['--name', 'messages-per-method', '--session', '5ebf57a4-27b5-4a47-9518-b169e2e5d5c4']],
  ];
  let local: CliResult[];
  let localGraph: CliResult;
  let service: Service | undefined;

  before(async () => {
    for (const file of [trafficFile, path.join(fixturesDir, 'traffic', 'traffic-sdk1.0.4-memory-0.6.2.jsonl')]) {
      const ingested = await runCli(['ingest', file, '--data', data, '--quiet']);
      assert.equal(ingested.code, 0, ingested.stderr);
    }
    writeFileSync(fromFile, 'SELECT (COUNT(*) AS ?n) FROM <urn:nope> WHERE { ?s ?p ?o }\n');
    writeFileSync(
      constructFile,
      'CONSTRUCT { ?session mld:called ?tool } WHERE { ?call a mcp:CallToolRequest ; jrpc:hasParameters/mcp:hasName ?tool ; mld:inSession ?session }\n',
    );
    // The answers from the data directory first (one at a time: each takes its lock), and the service then holds it.
    local = await run(
      runs.map(
        ([, args]) =>
          () =>
            runCli(['query', ...args, '--data', data, '--format', 'json']),
      ),
      1,
    );
    localGraph = await runCli(['query', constructFile, '--data', data, '--format', 'ntriples']);
    service = await startService(['--data', data]);
  });
  after(() => {
    service?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers named queries (and FROM, and --session) through the service exactly as from the data directory', async () => {
    const known = new NamedQueries().list().map((q) => q.name);
    assert.ok(named.every((name) => known.includes(name)));
    // Two at a time: the machine has two cores.
    const remote = await run(
      runs.map(
        ([, args]) =>
          () =>
            runCli(['query', ...args, '--store', `${service!.url}/sparql`, '--format', 'json']),
      ),
      2,
    );
    let rows = 0;
    runs.forEach(([what], i) => {
      assert.equal(local[i]!.code, 0, `${what} --data: ${local[i]!.stderr}`);
      assert.equal(remote[i]!.code, 0, `${what} --store: ${remote[i]!.stderr}`);
      assert.deepEqual(comparable(remote[i]!.stdout), comparable(local[i]!.stdout), what);
      rows += (JSON.parse(local[i]!.stdout) as Results).results?.bindings.length ?? 0;
    });
    assert.ok(rows > 100, `the queries answered ${rows} rows`);
    assert.equal(
      (JSON.parse(remote[runs.length - 2]!.stdout) as Results).results!.bindings[0]!['n']!.value,
      '0',
      'FROM <urn:nope> counts nothing',
    );
  });

  it('prints the graph of a CONSTRUCT through the service as from the data directory', async () => {
    const remote = await runCli(['query', constructFile, '--store', `${service!.url}/sparql`, '--format', 'ntriples']);
    assert.equal(localGraph.code, 0, localGraph.stderr);
    assert.equal(remote.code, 0, remote.stderr);
    const lines = (text: string) => text.trim().split('\n').sort();
    assert.ok(lines(localGraph.stdout).length > 5, localGraph.stdout);
    assert.deepEqual(lines(remote.stdout), lines(localGraph.stdout));
  });
});
