import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliPath, runCli, runCliBytes } from '../helpers/run-cli.js';
import { everythingServer, runSession, toolCalls } from '../helpers/mcp-session.js';
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { openStore } from '../../src/store/open-store.js';
import { DataLock } from '../../src/store/data-lock.js';
import { readStoreConfig } from '../../src/core/config.js';
import { selectRows, withService, type Service } from '../helpers/service.js';

const node = process.execPath;

function captureOf(file: string): { dir: string; msg?: Record<string, unknown>; raw?: string; session: string }[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** The arguments of `mcp-ld tap` bridged to `service`, spooling in `spool`, recording session `session`. */
function bridged(service: Service, spool: string, session: string): string[] {
  return ['tap', '--bridge', service.url, '--spool', spool, '--session-name', session];
}

describe('tap: a transparent stdio relay that records', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-tap-'));

  it('gives the SDK client the same results as without the tap, and captures every message with its direction', async () => {
    const direct = await runSession(node, [everythingServer, 'stdio']);
    const capture = path.join(dir, 'session.jsonl');
    const tapped = await runSession(node, [
      cliPath,
      'tap',
      '--capture',
      capture,
      '--session-name',
      'sdk-run',
      '--',
      node,
      everythingServer,
      'stdio',
    ]);
    assert.deepStrictEqual(tapped, direct);

    const records = captureOf(capture);
    assert.ok(records.every((r) => r.session === 'sdk-run'));
    const sent = records.filter((r) => r.dir === 'c2s').map((r) => r.msg!);
    assert.equal(sent[0]!['method'], 'initialize');
    const calls = sent.filter((m) => m['method'] === 'tools/call').map((m) => (m['params'] as { name: string }).name);
    assert.deepEqual(
      calls,
      toolCalls.map((c) => c.name),
      'tool calls per tool match the wire',
    );
    // Every request the client sent got its response recorded, in the other direction.
    const answered = new Set(
      records
        .filter((r) => r.dir === 's2c' && r.msg && 'id' in r.msg && !('method' in r.msg))
        .map((r) => JSON.stringify(r.msg!['id'])),
    );
    for (const request of sent.filter((m) => 'id' in m))
      assert.ok(answered.has(JSON.stringify(request['id'])), `response to ${String(request['method'])}`);
    // The capture converts: every message is a lifted message of the session.
    const converted = await runCli(['convert', capture, '--quiet']);
    assert.equal(converted.code, 0, converted.stderr);
    const messages = new Set(
      converted.stdout
        .split('\n')
        .filter((l) => l.includes('#inSession>'))
        .map((l) => l.split(' ')[0]),
    );
    assert.equal(messages.size, records.length);
  });

  it('stores every message in the graph, tool calls per tool as on the wire; with the store unavailable, nothing is lost once it is back', async () => {
    const data = path.join(dir, 'graph');
    const spool = path.join(dir, 'spool');
    // During the first session another process holds the store: the tap must relay anyway, and spool.
    const holder = await EmbeddedStore.open({ dataDir: data });
    const tapped = await runSession(node, [
      cliPath,
      'tap',
      '--data',
      data,
      '--spool',
      spool,
      '--session-name',
      'held',
      '--',
      node,
      everythingServer,
      'stdio',
    ]);
    assert.deepEqual(
      tapped.calls.map((c) => c.name),
      toolCalls.map((c) => c.name),
      'the session worked while the store was unavailable',
    );
    await holder.close();
    // The next run on the same store sends what was spooled before anything else.
    const next = await runCli(['tap', '--data', data, '--spool', spool, '--', node, '-e', '']);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /delivering \d+ batch\(es\) \(\d+ records\) spooled by an earlier run/);
    // The tap left a background owner holding the directory: it is read through that owner.
    const store = await openStore(readStoreConfig({ data }), { role: 'read' });
    try {
      const result = await store.query(
        'PREFIX mcp: <http://modelcontextprotocol.io/ontology#> PREFIX jrpc: <http://json-rpc.org/ontology#> SELECT ?name (COUNT(*) AS ?n) WHERE { GRAPH <urn:mcp-ld:session/held> { ?m a mcp:CallToolRequest ; jrpc:hasParameters ?p . ?p mcp:hasName ?name } } GROUP BY ?name',
      );
      assert.equal(result.form, 'SELECT');
      const counted = new Map(
        result.form === 'SELECT' ? result.rows.map((row) => [row.get('name')!.value, Number(row.get('n')!.value)]) : [],
      );
      const expected = new Map<string, number>();
      for (const call of toolCalls) expected.set(call.name, (expected.get(call.name) ?? 0) + 1);
      assert.deepEqual(counted, expected);
      const links = await store.query(
        'PREFIX mld: <https://w3id.org/mcp-ld/ns#> SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:mcp-ld:session/held> { ?response mld:respondsTo ?request . ?request mld:direction mld:clientToServer . ?response mld:direction mld:serverToClient } }',
      );
      const answered = links.form === 'SELECT' ? Number(links.rows[0]!.get('n')!.value) : 0;
      assert.equal(
        answered,
        toolCalls.length + 4,
        'initialize, tools/list, each tools/call, prompts/get and resources/read are answered and linked',
      );
    } finally {
      await store.close();
    }
  });

  it('names the server: --server NAME in every record and in the named queries, else the name the server gives itself', async () => {
    const data = path.join(dir, 'named');
    const capture = path.join(dir, 'named.jsonl');
    await runSession(node, [
      cliPath,
      'tap',
      '--data',
      data,
      '--capture',
      capture,
      '--server',
      'everything',
      '--session-name',
      'named',
      '--',
      node,
      everythingServer,
      'stdio',
    ]);
    assert.ok(
      captureOf(capture).every((record) => (record as { server?: string }).server === 'everything'),
      'every record names the server',
    );
    await runSession(node, [
      cliPath,
      'tap',
      '--data',
      data,
      '--session-name',
      'unnamed',
      '--',
      node,
      everythingServer,
      'stdio',
    ]);
    const calls = await runCli(['query', '--data', data, '--name', 'tool-calls', '--format', 'csv']);
    assert.equal(calls.code, 0, calls.stderr);
    const servers = new Set(
      calls.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    );
    // The second session names the server by its serverInfo (server-everything calls itself mcp-servers/everything).
    assert.deepEqual([...servers].sort(), ['everything', 'mcp-servers/everything']);
  });

  it('bridges into a running mcp-ld serve: the service lifts the records, tool calls per tool as on the wire', async () => {
    await withService([], {}, async (service) => {
      await runSession(node, [
        cliPath,
        ...bridged(service, path.join(dir, 'bridge-spool'), 'bridged'),
        '--',
        node,
        everythingServer,
        'stdio',
      ]);
      // The tap flushes before it exits; the SDK may close it first, so give the last batch a moment to land.
      const query =
        'SELECT ?name (COUNT(*) AS ?n) WHERE { GRAPH <urn:mcp-ld:session/bridged> { ?m a mcp:CallToolRequest ; jrpc:hasParameters/mcp:hasName ?name . ?r mld:respondsTo ?m } } GROUP BY ?name';
      const expected = new Map<string, number>();
      for (const call of toolCalls) expected.set(call.name, (expected.get(call.name) ?? 0) + 1);
      let counted = new Map<string, number>();
      for (let tries = 0; tries < 40; tries++) {
        const rows = await selectRows<'name' | 'n'>(service, query);
        counted = new Map(rows.map((row) => [row.name.value, Number(row.n.value)]));
        if (counted.size === expected.size) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(counted, expected, 'every tool call is in the service, answered');
    });
  });

  it('through --bridge, a batch the service refuses is set aside in the quarantine, said so, and the later ones land', async () => {
    await withService([], { MCPLD_BODY_LIMIT: '4096' }, async (service) => {
      const spool = path.join(dir, 'quarantine-spool');
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        result: { content: [{ type: 'text', text: 'x'.repeat(8000) }] },
      });
      const script = `echo '{"jsonrpc":"2.0","id":1,"result":{}}'; sleep 0.4; echo '${big}'; sleep 0.4; echo '{"jsonrpc":"2.0","id":3,"result":{}}'`;
      const { stderr, code } = await runCli([...bridged(service, spool, 'refused'), '--', 'sh', '-c', script]);
      assert.equal(code, 0, stderr);
      const rejected = readdirSync(spool).filter((name) => name.endsWith('.rejected.jsonl'));
      assert.equal(rejected.length, 1, `one quarantine file in ${readdirSync(spool).join(', ')}`);
      const quarantine = path.join(spool, rejected[0]!);
      assert.ok(
        stderr.includes(`a batch was refused and set aside in ${quarantine} (the batches behind it go on): `),
        stderr,
      );
      assert.match(stderr, /answered 400: no line is an MCP message \(1 bad line\(s\)\); nothing was stored/); // the line is over the body limit
      const [set] = readFileSync(quarantine, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { nquads: string; reason: string });
      assert.ok(set!.nquads.includes('x'.repeat(8000)), 'the refused batch is kept whole');
      assert.deepEqual(
        readdirSync(spool).filter((name) => name.endsWith('.spool.jsonl')),
        [],
        'nothing left in the spool',
      );
      const rows = await selectRows<'id'>(
        service,
        'SELECT ?id WHERE { GRAPH <urn:mcp-ld:session/refused> { ?m jrpc:hasId/jrpc:hasNumberValue ?id } } ORDER BY ?id',
      );
      assert.deepEqual(
        rows.map((row) => row.id.value),
        ['1', '3'],
        'the batches before and after the refused one are in the graph',
      );
    });
  });

  it('through --bridge without the write token, nothing is dropped: the batches wait in the spool, and the first run with the token delivers them all', async () => {
    await withService([], { MCPLD_WRITE_TOKEN: 'team-secret' }, async (service) => {
      const spool = path.join(dir, 'token-spool');
      const capture = path.join(dir, 'token.jsonl');
      const env = { ...process.env };
      delete env['MCPLD_WRITE_TOKEN'];
      // A server that answers each line with itself: three requests, three echoes.
      const input = [1, 2, 3].map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })).join('\n') + '\n';
      const first = await runCli([...bridged(service, spool, 'tokenless'), '--capture', capture, '--', 'cat'], {
        env: { ...env, MCPLD_TAP_FLUSH_MS: '1000' },
        input,
      });
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, input, 'relayed all the same');
      const wire = readFileSync(capture, 'utf8').trim().split('\n').length;
      assert.equal(wire, 6);
      assert.match(first.stderr, /; 0 records stored \(0 quads\), 6 kept in the spool, 0 refused and set aside/);
      const refused = first.stderr
        .split('\n')
        .filter(
          (line) =>
            line.includes('answered 401') &&
            line.includes("give the tap the service's write token in MCPLD_WRITE_TOKEN"),
        );
      assert.equal(refused.length, 1, `said once: ${first.stderr}`);
      const records = async () => {
        const [row] = await selectRows<'n'>(
          service,
          'SELECT (COUNT(?m) AS ?n) WHERE { GRAPH <urn:mcp-ld:session/tokenless> { ?m mld:order ?o } }',
        );
        return Number(row!.n.value);
      };
      assert.equal(await records(), 0, 'nothing stored without the token');

      const second = await runCli(['tap', '--bridge', service.url, '--spool', spool, '--', node, '-e', ''], {
        env: { ...env, MCPLD_WRITE_TOKEN: 'team-secret' },
      });
      assert.equal(second.code, 0, second.stderr);
      assert.match(
        second.stderr,
        new RegExp(`delivering \\d+ batch\\(es\\) \\(${wire} records\\) spooled by an earlier run`),
      );
      assert.match(
        second.stderr,
        new RegExp(`; ${wire} records stored \\(\\d+ quads\\), 0 kept in the spool, 0 refused and set aside`),
      );
      assert.equal(await records(), wire, 'as many messages stored as went over the wire');
      assert.deepEqual(
        readdirSync(spool).filter((name) => name.endsWith('.spool.jsonl')),
        [],
        'the spool is empty',
      );
    });
  });

  it('names a server that never says its name by the command it ran, in the capture and in the named queries', async () => {
    // A server that answers everything with an empty result: no serverInfo, in any version.
    const project = path.join(dir, 'quiet-project');
    mkdirSync(path.join(project, 'dist'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'acme-quiet-server' }));
    writeFileSync(
      path.join(project, 'dist', 'index.js'),
      "require('readline').createInterface({ input: process.stdin }).on('line', (line) => { const m = JSON.parse(line); if ('id' in m) console.log(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} })); });\n",
    );
    const data = path.join(dir, 'quiet');
    const capture = path.join(dir, 'quiet.jsonl');
    const requests = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    ];
    const tap = spawn(
      node,
      [
        cliPath,
        'tap',
        '--data',
        data,
        '--capture',
        capture,
        '--session-name',
        'quiet',
        '--',
        node,
        path.join('quiet-project', 'dist', 'index.js'),
      ],
      { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let answers = '';
    tap.stdout.on('data', (chunk: Buffer) => (answers += chunk.toString()));
    await new Promise<void>((resolve) => {
      tap.stdout.on('data', () => answers.split('\n').length > 2 && tap.stdin.end());
      tap.on('close', () => resolve());
      tap.stdin.write(requests.join('\n') + '\n');
    });
    assert.equal(answers.trim().split('\n').length, 2, 'both requests answered through the tap');
    // Named from the server's first answer on (the initialize request before it belongs to the session all the same).
    const records = captureOf(capture) as { dir: string; server?: string }[];
    const firstAnswer = records.findIndex((record) => record.dir === 's2c');
    assert.equal(records.length, 5);
    assert.ok(
      firstAnswer > 0 && records.slice(0, firstAnswer).every((record) => record.server === undefined),
      'the records before its first answer name no server',
    );
    assert.ok(
      records.slice(firstAnswer).every((record) => record.server === 'acme-quiet-server'),
      'from its first answer on, every record names it',
    );
    const sessions = await runCli(['query', '--data', data, '--name', 'sessions', '--format', 'rows']);
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.deepEqual(
      (JSON.parse(sessions.stdout) as { server?: string }[]).map((row) => row.server),
      ['acme-quiet-server'],
    );
  });

  it('relays bytes unchanged, non-JSON lines included, and records non-JSON lines as such', async () => {
    const capture = path.join(dir, 'bytes.jsonl');
    const input = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\r\nnot json \u00e9\u4e2d\n{"partial":');
    const { stdout: output } = await runCliBytes(['tap', '--capture', capture, '--', 'cat'], { input });
    assert.ok(output.equals(input), 'stdout carries exactly the bytes of stdin');
    const records = captureOf(capture);
    const expected = [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 'not json \u00e9\u4e2d', '{"partial":'];
    for (const dir of ['c2s', 's2c']) {
      assert.deepEqual(
        records.filter((r) => r.dir === dir).map((r) => r.raw ?? r.msg),
        expected,
        `${dir}: the JSON line as msg, the others as raw, an unterminated last line too`,
      );
    }
  });

  it('relays and records a message whose key is a lone surrogate (valid JSON), and a banner line, into the graph', async () => {
    const data = path.join(dir, 'lone-data');
    const lines = [
      'Server starting…',
      '{"jsonrpc":"2.0","id":1,"result":{"\\udc00":1}}',
      '{"jsonrpc":"2.0","id":2,"result":{"ok":true}}',
    ];
    const input = Buffer.from(lines.join('\n') + '\n');
    const { stdout: output, code } = await runCliBytes(['tap', '--data', data, '--session-name', 'lone', '--', 'cat'], {
      input,
    });
    assert.equal(code, 0);
    assert.ok(output.equals(input), 'every byte relayed');
    const lowered = await runCli(['query', '--data', data, '-', '--format', 'nquads'], {
      input: 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <urn:mcp-ld:session/lone> { ?s ?p ?o } }',
    });
    assert.equal(lowered.code, 0, lowered.stderr);
    const back = await runCli(['lower', '-'], {
      input: lowered.stdout.replace(/ \.$/gm, ' <urn:mcp-ld:session/lone> .'),
    });
    const records = back.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { raw?: string; msg?: unknown });
    // Each line twice (the tap observes both directions of `cat`): the banner as a raw line, the messages exactly.
    assert.deepEqual(
      records.filter((r) => r.raw !== undefined).map((r) => r.raw),
      [lines[0], lines[0]],
    );
    const sorted = (values: unknown[]) => values.map((v) => JSON.stringify(v)).sort();
    assert.deepEqual(
      sorted(records.filter((r) => r.msg !== undefined).map((r) => r.msg)),
      sorted([JSON.parse(lines[1]!), JSON.parse(lines[1]!), JSON.parse(lines[2]!), JSON.parse(lines[2]!)]),
    );
  });

  it('relays a line that is not UTF-8, one with a key given twice and one with 1e400 unchanged, and keeps each exactly as a raw line', async () => {
    const data = path.join(dir, 'exact-data');
    const capture = path.join(dir, 'exact.jsonl');
    const notUtf8 = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"t":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}}'),
    ]);
    const twice = '{"jsonrpc":"2.0","id":2,"result":{"a":1,"a":2}}';
    const huge = '{"jsonrpc":"2.0","id":3,"result":{"n":1e400}}';
    const input = Buffer.concat([notUtf8, Buffer.from(`\n${twice}\n${huge}\n{"jsonrpc":"2.0","id":4,"result":{}}\n`)]);
    // A server that prints the bytes it is given: only the s2c direction carries them.
    const {
      stdout: output,
      code,
      stderr,
    } = await runCliBytes([
      'tap',
      '--data',
      data,
      '--capture',
      capture,
      '--session-name',
      'exact',
      '--',
      node,
      '-e',
      `process.stdout.write(Buffer.from('${input.toString('base64')}', 'base64'))`,
    ]);
    assert.equal(code, 0, stderr);
    assert.ok(output.equals(input), 'every byte relayed');
    assert.match(
      stderr,
      /1 messages recorded \(\d+ quads\), 3 lines kept as raw lines \(not UTF-8, or JSON mcp-ld cannot keep exactly as a message\); 4 records stored \(\d+ quads\), 0 kept in the spool, 0 refused and set aside/,
    );
    const expected = [{ raw: notUtf8.toString('base64'), encoding: 'base64' }, { raw: twice }, { raw: huge }];
    const pick = (records: { raw?: string; encoding?: string }[]) =>
      records.filter((r) => r.raw !== undefined).map(({ raw, encoding }) => (encoding ? { raw, encoding } : { raw }));
    assert.deepEqual(pick(captureOf(capture)), expected, 'the capture keeps them exactly');
    const lowered = await runCli(['query', '--data', data, '-', '--format', 'nquads'], {
      input: 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <urn:mcp-ld:session/exact> { ?s ?p ?o } }',
    });
    assert.equal(lowered.code, 0, lowered.stderr);
    const back = await runCli(['lower', '-'], {
      input: lowered.stdout.replace(/ \.$/gm, ' <urn:mcp-ld:session/exact> .'),
    });
    assert.deepEqual(
      pick(
        back.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ),
      expected,
      'so does the graph',
    );
    assert.ok(Buffer.from(expected[0]!.raw, 'base64').equals(notUtf8));
    // The capture converts again to the same raw lines.
    const again = await runCli(['convert', capture, '--quiet']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.split('\n').filter((l) => l.includes('#rawBytes> ')).length, 1);
  });

  it("ends with its server even when the data directory's owner never answers: what it recorded waits in the spool", async () => {
    // A live lock naming a socket that takes connections and never says hello: an owner stuck while it starts.
    const data = path.join(dir, 'silent-owner');
    mkdirSync(data);
    const socket = path.join(dir, 'silent-owner.sock');
    const connections = new Set<net.Socket>();
    const silent = net.createServer((connection) => connections.add(connection));
    await new Promise<void>((resolve) => silent.listen(socket, resolve));
    const lock = await DataLock.acquire(data, undefined, { socket });
    const spool = path.join(dir, 'silent-owner-spool');
    try {
      const started = performance.now();
      const result = await runCli(
        ['tap', '--data', data, '--spool', spool, '--', node, '-e', 'process.stdin.pipe(process.stdout)'],
        { input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', env: { ...process.env, MCPLD_TAP_FLUSH_MS: '500' } },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.ok(performance.now() - started < 20_000, 'the tap did not wait for the owner (MCPLD_OWNER_WAIT_MS: 60 s)');
      // The relay's two lines may go out in one batch or two, as the recorder's batching times them.
      assert.match(
        result.stderr,
        /[12] batch\(es\) could not be delivered yet; they are kept in .* and sent by the next run/,
      );
      assert.doesNotMatch(result.stderr, /the store is unavailable/, 'nothing said of the store after the end');
      const [spooled] = readdirSync(spool).filter((f) => f.endsWith('.spool.jsonl'));
      assert.ok(spooled, 'a spool file');
      const records = readFileSync(path.join(spool, spooled), 'utf8')
        .trim()
        .split('\n')
        .reduce((n, line) => n + (JSON.parse(line) as { records: number }).records, 0);
      assert.equal(records, 2, 'both messages are in the spool');
    } finally {
      await lock.release();
      for (const connection of connections) connection.destroy();
      silent.close();
    }
  });

  it("propagates the server's exit code, and forwards SIGTERM to it", async () => {
    const exited = await runCli(['tap', '--', node, '-e', 'process.exit(3)']);
    assert.equal(exited.code, 3);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        node,
        [cliPath, 'tap', '--', node, '-e', 'process.stdout.write("ready\\n"); setInterval(() => {}, 1000)'],
        { stdio: ['pipe', 'pipe', 'ignore'] },
      );
      child.stdout.once('data', () => child.kill('SIGTERM'));
      child.on('close', (c) => resolve(c));
    });
    assert.equal(code, 128 + 15);
  });

  it('says clearly when the server command cannot be started, and exits 127', async () => {
    const result = await runCli(['tap', '--', 'no-such-mcp-server-command']);
    assert.equal(result.code, 127);
    assert.match(result.stderr, /cannot start no-such-mcp-server-command: command not found/);
  });

  it('needs a server command after --', async () => {
    const result = await runCli(['tap', '--capture', 'x.jsonl']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /name the server command after --/);
  });

  it('refuses a --session-name the API could not name (over 500 characters) before it starts the server', async () => {
    const result = await runCli(['tap', '--session-name', 'x'.repeat(501), '--', node, '-e', 'console.log("started")']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--session-name must be at most 500 characters \(it has 501\)/);
    assert.equal(result.stdout, '');
  });
});
