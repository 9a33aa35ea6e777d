// Issue 18's traps, each as a newcomer meets it: what the command says and its exit status.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { trafficFile } from '../helpers/corpus.js';
import { packageRoot } from '../../src/core/paths.js';
import { protocolVersions } from '../../src/schema/versions.js';
import { loadCommands } from '../../src/cli/main.js';
import { optionSynopsis } from '../../src/cli/help.js';
import { environmentVariables } from '../../src/core/config.js';

describe('cli: the first hour', function () {
  this.timeout(60_000);
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-ld-first-hour-'));
  const env = { ...process.env, XDG_CACHE_HOME: path.join(root, 'cache'), MCPLD_OWNER_IDLE_MS: '1000' };
  after(() => rmSync(root, { recursive: true, force: true }));

  it('--version prints the version and the protocol versions it knows', async () => {
    const { version } = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `mcp-ld ${version} (MCP protocol versions ${protocolVersions.join(', ')})\n`);
  });

  it("every command's --help lists each option it declares, with its default and environment variable, and examples", async () => {
    for (const command of await loadCommands()) {
      const help = await runCli(['help', command.name]);
      assert.equal(help.code, 0, command.name);
      assert.deepEqual(
        await runCli([command.name, '--help']),
        help,
        `${command.name} --help is mcp-ld help ${command.name}`,
      );
      const [usage, options = ''] = help.stdout.split(/\noptions:\n|\n(?=environment:\n|examples:\n)/);
      assert.ok(usage!.startsWith(`usage: ${command.usage}\n`), command.name);
      for (const [name, spec] of Object.entries(command.options)) {
        const line = options.split('\n').find((text) => text.trimStart().startsWith(`${optionSynopsis(name, spec)} `));
        assert.ok(line, `${command.name} --help lists --${name}`);
        assert.ok(command.usage.includes(`--${name}`), `the usage line of ${command.name} names --${name}`);
        const fallback = spec.default;
        if (typeof fallback === 'string')
          assert.ok(line.includes(`(default ${fallback})`), `${command.name} --${name} shows its default`);
        if (spec.env)
          assert.ok(
            line.endsWith(`[env ${spec.env}]`) && spec.env in environmentVariables,
            `${command.name} --${name} names ${spec.env}`,
          );
      }
      for (const name of command.environment ?? [])
        assert.match(help.stdout, new RegExp(`\\b${name}\\b`), `${command.name} --help names ${name}`);
      assert.ok(
        command.examples.length >= 1 && command.examples.length <= 2,
        `${command.name} has one or two examples`,
      );
      assert.ok(
        help.stdout.endsWith(`\nexamples:\n${command.examples.map((e) => `  ${e}\n`).join('')}`),
        `${command.name} --help ends with its examples`,
      );
    }
    const serve = await runCli(['serve', '--help']);
    assert.match(
      serve.stdout,
      /\n {2}--port PORT {2}port the service listens on \(default 8080\) \[env MCPLD_PORT\]\n/,
    );
    assert.match(serve.stdout, /\nenvironment:\n(.*\n)* {2}MCPLD_WRITE_TOKEN +bearer token/);
  });

  it('mcp-ld help with a name that is no command says so, lists the commands and exits 2', async () => {
    const result = await runCli(['help', 'nope']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^mcp-ld: unknown command "nope"\n\nmcp-ld: a JSON-LD \/ RDF bridge/);
    for (const command of await loadCommands())
      assert.match(
        result.stderr,
        new RegExp(`\\n {2}${command.name} +${command.summary.slice(0, 20).replace(/[()]/g, '.')}`),
      );
  });

  it('an unknown command or option says what is wrong and the name probably meant, and exits 2', async () => {
    const help = await runCli(['help', 'qeury']);
    assert.equal(help.code, 2);
    assert.match(help.stderr, /^mcp-ld: unknown command "qeury"; did you mean query\?\n/);
    const command = await runCli(['injest']);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /^mcp-ld: unknown command "injest"; did you mean ingest\?\n/);
    const option = await runCli(['query', '--fromat', 'csv', '--name', 'sessions']);
    assert.equal(option.code, 2);
    assert.match(
      option.stderr,
      /^mcp-ld query: unknown option --fromat; did you mean --format\?\nusage: mcp-ld query /,
    );
    const far = await runCli(['query', '--zzzzzz']);
    assert.match(far.stderr, /^mcp-ld query: unknown option --zzzzzz\n/);
    const missing = await runCli(['query', '--name']);
    assert.match(missing.stderr, /^mcp-ld query: --name needs a value\n/);
  });

  it('a port in use is one line and exit 1, not an internal error', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const result = await runCli(['serve', '--port', String(port)], { env: { ...env, MCPLD_LOG_LEVEL: 'error' } });
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        `mcp-ld serve: Port in use: port ${port} on 127.0.0.1 is in use; pass --port or MCPLD_PORT\n`,
      );
    } finally {
      busy.close();
    }
  });

  it('query --data on a directory that does not exist is an error, and creates nothing', async () => {
    const nowhere = path.join(root, 'typo');
    const result = await runCli(['query', '--name', 'sessions', '--data', nowhere], { env });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `mcp-ld query: No such data directory: ${nowhere} does not exist: nothing was ever stored there (check --data or MCPLD_DATA)\n`,
    );
    assert.ok(!existsSync(nowhere));
  });

  it('ingest of a file that does not exist leaves nothing behind in the data directory', async () => {
    const data = path.join(root, 'never');
    const result = await runCli(['ingest', path.join(root, 'missing.jsonl'), '--data', data], { env });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `mcp-ld ingest: Cannot read input: ${path.join(root, 'missing.jsonl')}: no such file\n`,
    );
    assert.ok(!existsSync(data));
  });

  it("--session names a session that exists, or says there is none; it fills a named query's session parameter", async () => {
    const data = path.join(root, 'graph');
    assert.equal((await runCli(['ingest', trafficFile, '--data', data, '--quiet'], { env })).code, 0);
    const none = await runCli(['query', '--name', 'sessions', '--data', data, '--session', 'nope'], { env });
    assert.equal(none.code, 1);
    assert.equal(
      none.stderr,
      'mcp-ld query: No such session: no session "nope" in the store (`mcp-ld query --name sessions` lists them)\n',
    );
    const timeline = await runCli(
      [
        'query',
        '--name',
        'session-timeline',
        '--data',
        data,
        '--session',
        '57cd8539-bf6a-4833-ae14-361ffa3a23c9',
        '--format',
        'csv',
      ],
      { env },
    );
    assert.equal(timeline.code, 0, timeline.stderr);
    assert.equal(timeline.stdout.trim().split('\n').length, 221, 'a header and the 220 messages of the session');
  });

  it('a table shows times in one fixed form, means with three decimals and IRIs compacted', async () => {
    const data = path.join(root, 'graph');
    if (!existsSync(data))
      assert.equal((await runCli(['ingest', trafficFile, '--data', data, '--quiet'], { env })).code, 0);
    const latency = await runCli(['query', '--name', 'latency-by-method', '--data', data], { env });
    assert.equal(latency.code, 0, latency.stderr);
    assert.match(latency.stdout, /^tools\/call +mld:clientToServer +31 +264\.097 +2 +3014 +3015 +0 +3015$/m);
    const errors = await runCli(['query', '--name', 'tool-errors', '--data', data], { env });
    assert.match(errors.stdout, /^everything +trigger-url-elicitation +3 +3 +0 +1 +0 +0\.333$/m);
    const timeline = await runCli(
      ['query', '--name', 'session-timeline', '--data', data, '--session', '57cd8539-bf6a-4833-ae14-361ffa3a23c9'],
      { env },
    );
    const times = [...timeline.stdout.matchAll(/^ *\d+ {2}(\S+)/gm)].map((m) => m[1]!);
    assert.equal(times.length, 220);
    for (const time of times) assert.match(time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(times.includes('2026-11-29T22:56:05.080Z'), 'a time the store gives as …05.08Z keeps its three digits');
    assert.deepEqual([...times].sort(), times, 'in the fixed form, time order is text order');
  });

  it('input of the wrong kind is named once, with the command probably meant', async () => {
    const turtle = path.join(root, 'graph.ttl');
    const nquads = path.join(root, 'graph.nq');
    writeFileSync(turtle, (await runCli(['convert', trafficFile, '--format', 'turtle', '--quiet'])).stdout);
    writeFileSync(nquads, (await runCli(['convert', trafficFile, '--quiet'])).stdout);
    const convert = await runCli(['convert', turtle]);
    assert.equal(convert.code, 1);
    assert.equal(convert.stdout, '');
    assert.equal(
      convert.stderr,
      `mcp-ld convert: Wrong kind of input: ${turtle} looks like Turtle; convert reads MCP JSON/JSONL — did you mean lower?\n`,
    );
    const ingest = await runCli(['ingest', nquads, '--data', path.join(root, 'wrong-kind')], { env });
    assert.equal(ingest.code, 1);
    assert.match(
      ingest.stderr,
      /^mcp-ld ingest: Wrong kind of input: .*graph\.nq looks like N-Quads \(or N-Triples\); ingest reads MCP JSON\/JSONL — did you mean lower\?\n/,
    );
    const lower = await runCli(['lower', trafficFile]);
    assert.equal(lower.code, 1);
    assert.equal(lower.stdout, '');
    assert.equal(
      lower.stderr,
      `mcp-ld lower: Wrong kind of input: ${trafficFile}: this is JSONL of MCP messages; lower reads the N-Quads or TriG that convert writes — did you mean convert?\n`,
    );
    const piped = await runCli(['lower'], { input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n' });
    assert.match(
      piped.stderr,
      /^mcp-ld lower: Wrong kind of input: stdin: this is an MCP message \(JSON\); .* did you mean convert\?\n$/,
    );
    const asNQuads = await runCli(['lower', turtle]);
    assert.match(asNQuads.stderr, /looks like Turtle or TriG, not N-Quads: pass --format trig/);
    assert.equal((await runCli(['lower', nquads])).code, 0, 'N-Quads still lower');
  });

  it('a run of bad lines is shown for the first few, and the rest summarised on one line', async () => {
    const capture = readFileSync(trafficFile, 'utf8').split('\n');
    const file = path.join(root, 'damaged.jsonl');
    writeFileSync(
      file,
      [...capture.slice(0, 3), ...Array.from({ length: 5222 }, (_, i) => `garbage ${i}`), ...capture.slice(3)].join(
        '\n',
      ),
    );
    for (const [command, prefix] of [
      ['convert', ''],
      ['ingest', `${file}: `],
    ] as const) {
      const result = await runCli(
        [command, file, ...(command === 'ingest' ? ['--data', path.join(root, 'damaged')] : [])],
        { env },
      );
      assert.equal(result.code, 1);
      const lines = result.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 12, `${command}: ten bad lines, the rest in one, and the summary`);
      assert.deepEqual(
        lines.slice(0, 10).map((line) => line.slice(prefix.length).split(':')[0]),
        Array.from({ length: 10 }, (_, i) => `line ${i + 4}`),
      );
      assert.equal(lines[10], '… and 5,212 more malformed lines');
      assert.match(lines[11]!, /220 messages in 1 session .* 5222 failed lines/);
    }
    const nquads = (await runCli(['convert', trafficFile, '--quiet'])).stdout.split('\n');
    const lower = await runCli(['lower'], {
      input: [...nquads.slice(0, 5), ...Array.from({ length: 30 }, () => '<urn:x> <urn:y> .'), ...nquads.slice(5)].join(
        '\n',
      ),
    });
    assert.equal(lower.code, 1);
    assert.match(lower.stderr, /^(line \d+: .*\n){10}… and 20 more malformed lines\n$/);
  });
});
