import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { captureFiles, trafficFile, trafficRecords } from '../helpers/corpus.js';
import { jsonLinesText, latencyRowsProblems, rowsText, toolCallRows } from '../helpers/rows.js';
import { encodeFrame } from '../../src/store/frames.js';
import { journalFileName, snapshotFileName } from '../../src/store/file-journal.js';

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
    const counted = new Map(
      rows
        .map((row) => row.split(','))
        .map((cells) => [cells[columns.indexOf('tool')]!, Number(cells[columns.indexOf('calls')])]),
    );
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

  it('prints a named query as plain JSON rows (--format rows) and as JSON Lines (--format jsonl), exactly the rows of the JSON', async () => {
    const rows = await runCli(['query', '--name', 'tool-calls', '--data', data, '--format', 'rows']);
    assert.equal(rows.code, 0, rows.stderr);
    assert.equal(rows.stdout, rowsText(toolCallRows(trafficRecords())));
    const lines = await runCli([
      'query',
      '--name',
      'tool-calls',
      '--param',
      'tool=echo',
      '--data',
      data,
      '--format',
      'jsonl',
    ]);
    assert.equal(lines.code, 0, lines.stderr);
    assert.equal(lines.stdout, jsonLinesText(toolCallRows(trafficRecords(), 'echo')));
    // IRIs compacted, unbound variables left out, also for a query file.
    const file = path.join(dir, 'kinds.rq');
    writeFileSync(
      file,
      'SELECT ?class ?none WHERE { VALUES ?class { mcp:CallToolRequest } ?m a ?class OPTIONAL { ?m mld:nothing ?none } } LIMIT 1\n',
    );
    const compacted = await runCli(['query', file, '--data', data, '--format', 'jsonl']);
    assert.equal(compacted.stdout, '{"class":"mcp:CallToolRequest"}\n');
    const ask = await runCli(['query', '-', '--data', data, '--format', 'rows'], { input: 'ASK { ?s ?p ?o }' });
    assert.equal(ask.code, 2);
    assert.match(ask.stderr, /an ASK query is written as table, json, xml, csv, tsv, not rows/);
  });

  it('computes the percentiles of latency-by-method as the API does (p50, p95, p99 from the capture’s latencies)', async () => {
    const lines = await runCli(['query', '--name', 'latency-by-method', '--data', data, '--format', 'jsonl']);
    assert.equal(lines.code, 0, lines.stderr);
    const rows = lines.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(latencyRowsProblems(rows, trafficRecords()), []);
    const table = await runCli(['query', '--name', 'latency-by-method', '--data', data]);
    assert.match(
      table.stdout.split('\n')[0]!,
      /^method +direction +answered +avgMs +p50Ms +p95Ms +p99Ms +minMs +maxMs$/,
    );
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

  it('binds the --param of a query file that declares it, reads a query from stdin, and narrows to one session', async () => {
    const file = path.join(dir, 'calls.rq');
    writeFileSync(
      file,
      '# @param tool xsd:string (required) — the tool\nSELECT (COUNT(*) AS ?n) WHERE { ?c a mcp:CallToolRequest ; jrpc:hasParameters/mcp:hasName ?tool }\n',
    );
    const expected = trafficRecords().filter(
      ({ msg }) => msg['method'] === 'tools/call' && (msg['params'] as { name: string }).name === 'get-sum',
    ).length;
    const bound = await runCli(['query', file, '--param', 'tool=get-sum', '--data', data, '--format', 'tsv']);
    assert.equal(bound.code, 0, bound.stderr);
    assert.equal(bound.stdout, `?n\n${expected}\n`);
    const missing = await runCli(['query', file, '--data', data]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /needs parameter tool/);
    const stdin = await runCli(
      ['query', '-', '--data', data, '--format', 'csv', '--session', '57cd8539-bf6a-4833-ae14-361ffa3a23c9'],
      { input: 'SELECT (COUNT(?m) AS ?n) WHERE { ?m mld:inSession ?s }' },
    );
    assert.equal(stdin.code, 0, stdin.stderr);
    assert.equal(stdin.stdout, `n\r\n${trafficRecords().length}\r\n`);
    const elsewhere = await runCli(['query', '-', '--data', data, '--format', 'csv', '--session', 'no-such-session'], {
      input: 'SELECT (COUNT(?m) AS ?n) WHERE { ?m mld:inSession ?s }',
    });
    assert.equal(elsewhere.code, 1, 'a session that is not there is said to be missing, not counted as empty');
    assert.match(elsewhere.stderr, /No such session: no session "no-such-session" in the store/);
  });

  it('writes CONSTRUCT results as Turtle by default, and refuses a format that does not fit', async () => {
    const query = 'CONSTRUCT { ?s mld:sessionId ?id } WHERE { ?s mld:sessionId ?id }';
    const turtle = await runCli(['query', '-', '--data', data], { input: query });
    assert.equal(turtle.code, 0, turtle.stderr);
    assert.match(turtle.stdout, /mld:sessionId "57cd8539-bf6a-4833-ae14-361ffa3a23c9"/);
    const nquads = await runCli(['query', '-', '--data', data, '--format', 'nquads'], { input: query });
    assert.match(
      nquads.stdout,
      /^<urn:mcp-ld:session\/57cd8539-bf6a-4833-ae14-361ffa3a23c9> <https:\/\/w3id\.org\/mcp-ld\/ns#sessionId> "57cd8539-bf6a-4833-ae14-361ffa3a23c9" \.$/m,
    );
    const csv = await runCli(['query', '-', '--data', data, '--format', 'csv'], { input: query });
    assert.equal(csv.code, 2);
    assert.match(csv.stderr, /a CONSTRUCT query is written as turtle/);
  });

  it('writes nothing to the data directory: its journal (torn last write and all) and snapshot keep their bytes and times', async () => {
    const own = path.join(dir, 'read-only');
    const [one, two, three] = captureFiles().filter((file) => file !== trafficFile);
    for (const file of [one!, two!, three!]) {
      // The second run finds the first one's journal and folds it into a snapshot; the third leaves a journal behind.
      const ingested = await runCli(['ingest', file, '--data', own, '--quiet']);
      assert.equal(ingested.code, 0, ingested.stderr);
    }
    const files = [journalFileName, snapshotFileName].map((name) => path.join(own, name));
    const torn = encodeFrame('quads', 1000, Buffer.from('<urn:x:a> <urn:x:b> "c" <urn:mcp-ld:session/torn> .\n'));
    appendFileSync(files[0]!, torn.subarray(0, torn.length - 5));
    const then = new Date('2001-01-01T00:00:00Z');
    for (const file of files) utimesSync(file, then, then);
    const before = files.map((file) => ({ bytes: readFileSync(file), mtimeMs: statSync(file).mtimeMs }));
    assert.ok(before[0]!.bytes.length > torn.length && before[1]!.bytes.length > 0, 'a journal and a snapshot to read');
    const result = await runCli(['query', '-', '--data', own, '--format', 'tsv'], {
      input: 'SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a mld:Session }',
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '?n\n3\n');
    files.forEach((file, i) => {
      assert.ok(readFileSync(file).equals(before[i]!.bytes), `${file} kept its bytes`);
      assert.equal(statSync(file).mtimeMs, before[i]!.mtimeMs, `${file} kept its modification time`);
    });
    assert.match(result.stderr, /ignored an incomplete last write .*left in the file, as this open only reads/);
  });

  it('reports malformed SPARQL and updates with exit 1, naming the line', async () => {
    const malformed = await runCli(['query', '-', '--data', data], { input: 'SELECT *\nWHERE { ?s ?p }' });
    assert.equal(malformed.code, 1);
    assert.match(malformed.stderr, /Malformed query: stdin\.rq: line 2, column 15: unexpected '\}'/);
    const update = await runCli(['query', '-', '--data', data], { input: 'DELETE WHERE { ?s ?p ?o }' });
    assert.equal(update.code, 1);
    assert.match(update.stderr, /Update refused: .*DELETE WHERE is a SPARQL update/);
  });
});
