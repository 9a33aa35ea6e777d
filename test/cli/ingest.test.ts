import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { trafficFile } from '../helpers/corpus.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { RemoteStore } from '../../src/store/remote-store.js';
import { virtuosoOrSkip } from '../helpers/virtuoso.js';

const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

/** The environment of a CLI run: this process's, without any store configuration of the developer's own. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('MCPLD_')) delete env[name];
  return { ...env, ...extra };
}

/** How many JSON-RPC requests the store holds (as the store writes the count); false for an answer not a SELECT's. */
async function requestCount(store: EmbeddedStore): Promise<string | false> {
  const result = await store.query('SELECT (COUNT(?m) AS ?n) WHERE { ?m a <http://json-rpc.org/ontology#Request> }');
  return result.form === 'SELECT' && result.rows[0]!.get('n')!.value;
}

describe('cli: ingest', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-ingest-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lifts a capture into a data directory in batches and prints a summary; ingesting it again changes nothing', async () => {
    const data = path.join(dir, 'data');
    const result = await runCli(['ingest', trafficFile, '--data', data, '--batch', '50'], { env: cleanEnv() });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /^mcp-ld ingest: 220 messages in 1 session → (\d+) quads; \d+ invalid, \d+ unknown methods, 0 failed lines; protocol 2025-11-25 \(220\); stored \1 quads in 5 batches into .*data$/m,
    );
    assert.doesNotMatch(result.stderr, /memory only/);
    const quads = Number(/→ (\d+) quads/.exec(result.stderr)![1]);
    const again = await runCli(['ingest', trafficFile], { env: cleanEnv({ MCPLD_DATA: data }) });
    assert.equal(again.code, 0, again.stderr);
    const store = await EmbeddedStore.open({ dataDir: data });
    try {
      assert.equal(await store.size(), quads);
      assert.equal((await store.graphs()).length, 1);
    } finally {
      await store.close();
    }
  });

  it('reports bad lines with their file and line number, stores the rest, and exits 1', async () => {
    const file = path.join(dir, 'mixed.jsonl');
    writeFileSync(file, `${ping}\n{"jsonrpc":\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n`);
    const data = path.join(dir, 'data');
    const result = await runCli(['ingest', file, '-', '--data', data, '--session', 's1'], {
      env: cleanEnv(),
      input: `${ping.replace('1', '3')}\n`,
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /mixed\.jsonl: line 2: Malformed JSON/);
    assert.match(
      result.stderr,
      /3 messages in 1 session → \d+ quads; \d+ invalid, \d+ unknown methods, 1 failed line; protocol [-0-9]+ \(3\); stored \d+ quads/,
    );
    const store = await EmbeddedStore.open({ dataDir: data });
    try {
      assert.deepEqual(
        (await store.graphs()).map((g) => g.graph),
        ['urn:mcp-ld:session/s1'],
      );
      assert.equal(await requestCount(store), '3');
    } finally {
      await store.close();
    }
  });

  it('reports a line that is not UTF-8 and a key given twice, stores the others and nothing of those', async () => {
    const data = path.join(dir, 'data');
    const input = Buffer.concat([
      Buffer.from(`${ping}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`),
      Buffer.from([0xff]),
      Buffer.from(`"}}\n{"jsonrpc":"2.0","id":3,"method":"tools/list","method":"ping"}\n`),
    ]);
    const result = await runCli(['ingest', '-', '--data', data, '--session', 's1'], { env: cleanEnv(), input });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^stdin: line 2: Invalid UTF-8: invalid UTF-8 at byte 105 \(0xFF\)/m);
    assert.match(
      result.stderr,
      /^stdin: line 3: Duplicate key: the key "method" is given twice in one object, the second time at line 3, column 47: /m,
    );
    assert.match(result.stderr, /1 message in 1 session → \d+ quads; \d+ invalid, \d+ unknown methods, 2 failed lines/);
    const store = await EmbeddedStore.open({ dataDir: data });
    try {
      assert.equal(await requestCount(store), '1');
    } finally {
      await store.close();
    }
  });

  it('says when the store is memory-only', async () => {
    const result = await runCli(['ingest', '-'], { env: cleanEnv(), input: ping });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /warning: no data directory .* memory only/);
    assert.match(result.stderr, /stored \d+ quads in 1 batch into memory/);
  });

  it('fails clearly when the data directory is in use, or the remote store is down, or the command line is wrong', async () => {
    const data = path.join(dir, 'data');
    const store = await EmbeddedStore.open({ dataDir: data });
    try {
      const locked = await runCli(['ingest', trafficFile, '--data', data], { env: cleanEnv() });
      assert.equal(locked.code, 1);
      assert.match(locked.stderr, /Data directory in use: .* is in use by process \d+/);
      // The store opens while the first batch is lifted: a store that cannot open still fails the command alone,
      // with nothing said of batches.
      assert.doesNotMatch(locked.stderr, /stored|batch|store error/);
    } finally {
      await store.close();
    }
    const down = await runCli(['ingest', trafficFile, '--store', 'http://127.0.0.1:9/sparql'], { env: cleanEnv() });
    assert.equal(down.code, 1);
    assert.match(down.stderr, /Store unavailable: cannot reach the remote store/);
    assert.match(down.stderr, /stored 0 quads in 0 batches into the remote store; 1 store error/);
    const both = await runCli(['ingest', trafficFile, '--store', 'http://127.0.0.1:9/sparql', '--data', data], {
      env: cleanEnv(),
    });
    assert.equal(both.code, 2);
    const none = await runCli(['ingest'], { env: cleanEnv() });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /usage: mcp-ld ingest/);
  });

  it('stores into a remote Virtuoso with --store and the credentials from the environment', async function () {
    const virtuoso = await virtuosoOrSkip(this);
    const remote = await RemoteStore.open({
      queryUrl: virtuoso.queryUrl,
      user: virtuoso.user,
      password: virtuoso.password,
    });
    for (const { graph } of await remote.graphs()) await remote.deleteGraph(graph);
    const result = await runCli(['ingest', trafficFile, '--store', virtuoso.queryUrl], {
      env: cleanEnv({ MCPLD_STORE_USER: virtuoso.user, MCPLD_STORE_PASSWORD: virtuoso.password }),
    });
    assert.equal(result.code, 0, result.stderr);
    const quads = Number(/→ (\d+) quads/.exec(result.stderr)![1]);
    assert.equal(await remote.size(), quads);
  });
});
