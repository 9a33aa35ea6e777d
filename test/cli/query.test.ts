import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { trafficFile, trafficRecords } from '../helpers/corpus.js';

describe('cli: query', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-query-'));
  const data = path.join(dir, 'data');

  before(async () => {
    const ingested = await runCli(['ingest', trafficFile, '--data', data, '--quiet']);
    assert.equal(ingested.code, 0, ingested.stderr);
  });

  it('runs a named query and prints CSV whose counts equal the JSON', async () => {
    const result = await runCli(['query', '--name', 'tool-calls', '--data', data, '--format', 'csv']);
    assert.equal(result.code, 0, result.stderr);
    const [header, ...rows] = result.stdout.trim().split(/\r?\n/);
    const columns = header!.split(',');
    const counted = new Map(rows.map((row) => row.split(',')).map((cells) => [cells[columns.indexOf('tool')]!, Number(cells[columns.indexOf('calls')])]));
    const expected = new Map<string, number>();
    for (const { msg } of trafficRecords()) {
      if (msg['method'] === 'tools/call') {
        const name = (msg['params'] as { name: string }).name;
        expected.set(name, (expected.get(name) ?? 0) + 1);
      }
    }
    assert.deepEqual(counted, expected);
  });

  it('runs a query file, prints a table by default, and the SPARQL 1.1 JSON results format with --format json', async () => {
    const file = path.join(dir, 'version.rq');
    writeFileSync(file, 'SELECT ?version WHERE { ?session mld:protocolVersion ?version }\n');
    const table = await runCli(['query', file, '--data', data]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /version/);
    assert.match(table.stdout, /2025-11-25/);
    const json = JSON.parse((await runCli(['query', file, '--data', data, '--format', 'json'])).stdout);
    assert.deepEqual(json.head.vars, ['version']);
    assert.equal(json.results.bindings[0].version.value, '2025-11-25');
  });

  it('lists the named queries', async () => {
    const result = await runCli(['query', '--list']);
    assert.equal(result.code, 0);
    assert.ok(result.stdout.trim().split('\n').length >= 12);
    assert.match(result.stdout, /^tool-calls\s/m);
  });

  it('refuses SERVICE, a parameter of the wrong type, and an unknown query, with a clear message and exit 1', async () => {
    const file = path.join(dir, 'service.rq');
    writeFileSync(file, 'SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }\n');
    const service = await runCli(['query', file, '--data', data]);
    assert.equal(service.code, 1);
    assert.match(service.stderr, /SERVICE/);
    const unknown = await runCli(['query', '--name', 'no-such-query', '--data', data]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no named query "no-such-query"/);
    const wrongType = await runCli(['query', '--name', 'slowest-requests', '--param', 'limit=many', '--data', data]);
    assert.equal(wrongType.code, 1);
    assert.match(wrongType.stderr, /limit/);
    const usage = await runCli(['query', '--data', data]);
    assert.equal(usage.code, 2);
  });
});
