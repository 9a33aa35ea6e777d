// Issue 15's must-hold: three real servers, each behind its own tap on one data directory, each with a real SDK
// client; a fourth process queries the directory while all three run; the process holding the store is killed (-9)
// in the middle; in the end every message on the wire is in the graph, under its server's name, and no spool is left.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath, runCli } from '../helpers/run-cli.js';
import { everythingServer } from '../helpers/mcp-session.js';
import { readLockHolder } from '../../src/store/data-lock.js';

const require = createRequire(import.meta.url);
const serverOf = (name: string) =>
  path.join(path.dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js');

interface Tapped {
  name: string;
  client: Client;
  capture: string;
}

/** The `sessions` rows as {server → messages}. */
function messagesPerServer(csv: string): Map<string, number> {
  const [header, ...rows] = csv
    .trim()
    .split('\n')
    .map((line) => line.split(','));
  const server = header!.indexOf('server');
  const messages = header!.indexOf('messages');
  return new Map(rows.map((row) => [row[server]!, Number(row[messages])]));
}

describe('tap: three servers recorded into one data directory, queried while they run', function () {
  this.timeout(180_000);
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-ld-many-'));
  const data = path.join(root, 'graph');
  const spool = path.join(root, 'spool');
  const files = path.join(root, 'files');
  const env = {
    ...process.env,
    MCPLD_SPOOL: spool,
    MCPLD_OWNER_IDLE_MS: '3000',
    XDG_CACHE_HOME: path.join(root, 'cache'),
    MEMORY_FILE_PATH: path.join(root, 'memory-server-graph.jsonl'),
  } as Record<string, string>;
  after(() => rmSync(root, { recursive: true, force: true }));

  async function tap(name: string, server: string[], flags: string[] = []): Promise<Tapped> {
    const capture = path.join(root, `${name}.jsonl`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'tap', '--data', data, '--capture', capture, ...flags, '--', process.execPath, ...server],
      env,
      stderr: 'ignore',
    });
    const client = new Client({ name: `client-of-${name}`, version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    return { name, client, capture };
  }

  const sessions = async () => {
    const result = await runCli(['query', '--data', data, '--name', 'sessions', '--format', 'csv'], { env });
    assert.equal(result.code, 0, result.stderr);
    return messagesPerServer(result.stdout);
  };
  const onTheWire = (tapped: Tapped) => readFileSync(tapped.capture, 'utf8').trim().split('\n').length;

  it('finds every message of all three sessions, each under its server, with the owner killed in the middle and no spool left', async () => {
    mkdirSync(files);
    const taps = [
      await tap('everything', [everythingServer, 'stdio']),
      await tap('memory', [serverOf('server-memory')], ['--server', 'memory']),
      await tap('filesystem', [serverOf('server-filesystem'), files]),
    ];
    const [everything, memory, filesystem] = taps as [Tapped, Tapped, Tapped];
    const names = ['mcp-servers/everything', 'memory', 'secure-filesystem-server'];
    const work = async (round: number) => {
      await everything.client.callTool({ name: 'echo', arguments: { message: `round ${round}` } });
      await memory.client.callTool({
        name: 'create_entities',
        arguments: { entities: [{ name: `e${round}`, entityType: 'test', observations: [`seen in round ${round}`] }] },
      });
      await memory.client.callTool({ name: 'read_graph', arguments: {} });
      await filesystem.client.callTool({
        name: 'write_file',
        arguments: { path: path.join(files, `f${round}.txt`), content: `round ${round}` },
      });
      await filesystem.client.callTool({ name: 'list_directory', arguments: { path: files } });
    };
    try {
      for (const { client } of taps) await client.listTools();
      await work(1);

      // A fourth process, while all three run: every session is there, under its server's name.
      let seen = new Map<string, number>();
      for (let tries = 0; tries < 100 && seen.size < 3; tries++) {
        seen = await sessions();
        if (seen.size < 3) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(
        [...seen.keys()].sort(),
        [...names].sort(),
        'three sessions, named by --server or by the serverInfo each server gives',
      );

      // kill -9 of whichever process holds the store.
      const holder = await readLockHolder(data);
      assert.ok(holder?.live && holder.socket, 'an owner serves the directory');
      process.kill(holder.pid, 'SIGKILL');
      await work(2);
      await work(3);
      // The taps send what they recorded since (their batches leave every 100 ms): one of them starts another owner.
      let after = await readLockHolder(data);
      for (let tries = 0; tries < 200 && !(after?.live && after.socket && after.pid !== holder.pid); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await readLockHolder(data);
      }
      assert.ok(after?.live && after.pid !== holder.pid, 'another owner took over');
    } finally {
      for (const { client } of taps) await client.close();
    }

    // The taps flush as they exit (the SDK does not wait for that): the graph ends up with every wire message.
    const expected = new Map(taps.map((tapped, i) => [names[i]!, onTheWire(tapped)]));
    let stored = new Map<string, number>();
    for (let tries = 0; tries < 100; tries++) {
      stored = await sessions();
      if ([...expected].every(([name, count]) => stored.get(name) === count)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(stored, expected, 'as many messages stored per server as went over its wire');
    const left = existsSync(spool) ? readdirSync(spool).filter((name) => name.endsWith('.spool.jsonl')) : [];
    assert.deepEqual(left, [], 'nothing waits in a spool');

    const status = await runCli(['status', '--data', data], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^data directory ${data.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.match(status.stdout, /^ {2}sessions: 3 \(/m);
    assert.match(status.stdout, /^ {2}spool: nothing undelivered$/m);
  });
});
