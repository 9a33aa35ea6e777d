// Every shell example of the README, run as a newcomer runs it (in a directory of their own, capture.jsonl copied
// there,
// mcp-ld on the PATH, the curl examples against a real `mcp-ld serve`), with the shape of what it prints checked; the
// README's shown outputs (`$ command` blocks) compared line for line. The examples that cannot run offline are named
// below with why: an example that is neither run nor named fails the test.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser } from 'n3';
import { packageRoot } from '../../src/core/paths.js';
import { cliPath, runProcess, type CliResult as Run } from '../helpers/run-cli.js';

interface Example {
  /** The command as the README writes it (continuation lines joined). */
  command: string;
  /** Where it is: the README line of its block. */
  line: number;
  /** The output the README shows for it (a `$ command` block), `…` standing for any lines. */
  shown?: string[];
  /** Run against the service that has MCPLD_WRITE_TOKEN=s3cret (the SPARQL Update block). */
  tokenService: boolean;
}

/** The examples this test cannot run, each with why. */
const unrunnable: { match: RegExp; why: string }[] = [
  { match: /^npm (install|test)\b/, why: 'installs the package or runs the whole suite, this test included' },
  {
    match: /^(MCPLD_WRITE_TOKEN=s3cret )?npm start\b/,
    why: 'serves until stopped: the test starts the same service itself (mcp-ld serve, with the same token) for the curl examples',
  },
  { match: /docker compose/, why: 'needs Docker and the Virtuoso image' },
  {
    match: /--store http:\/\/127\.0\.0\.1:8890\//,
    why: 'needs a Virtuoso server (test/store/remote-store.test.ts runs one)',
  },
  { match: /\/home\/me\//, why: "reads the data directory an MCP client's taps recorded in the example above it" },
];

/** The blocks of Docker's section: its curl talks to the compose service, not started here. */
const dockerBlock = (block: string[]) => block.some((line) => line.includes('docker compose'));

function readmeExamples(): Example[] {
  const lines = readFileSync(path.join(packageRoot, 'README.md'), 'utf8').split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const start = i + 1;
    const block: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) block.push(lines[i]!);
    const tokenService = block.some((line) => line.includes('MCPLD_WRITE_TOKEN=s3cret'));
    if (fence[1] === 'sh') {
      const joined = block
        .join('\n')
        .replace(/\\\n\s*/g, '')
        .split('\n');
      for (const command of joined.map((text) => text.trim()).filter(Boolean)) {
        examples.push({
          command: dockerBlock(block) && !command.includes('docker') ? `${command} # docker compose` : command,
          line: start,
          tokenService,
        });
      }
    } else if (fence[1] === '' && block[0]?.startsWith('$ ')) {
      for (let j = 0; j < block.length; j++) {
        if (!block[j]!.startsWith('$ ')) continue;
        const shown: string[] = [];
        for (j++; j < block.length && !block[j]!.startsWith('$ '); j++) shown.push(block[j]!);
        j--;
        examples.push({ command: block[j - shown.length]!.slice(2), line: start, shown, tokenService });
      }
    }
  }
  return examples;
}

/** Whether `text` is the answer of a problem (the curl examples must not meet one). */
function isProblem(text: string): boolean {
  try {
    const value = JSON.parse(text) as { status?: unknown };
    return typeof value.status === 'number' && value.status >= 400;
  } catch {
    return false;
  }
}

/** The shape each kind of example must print, the first that matches deciding. */
const shapes: { match: RegExp; check: (run: Run, dir: string, command: string) => void }[] = [
  {
    match: /\| mcp-ld convert --format turtle$/,
    check: ({ stdout }) =>
      assert.ok(new Parser({ format: 'Turtle' }).parse(stdout).length > 10 && stdout.startsWith('@prefix')),
  },
  {
    match: /^mcp-ld convert capture\.jsonl > capture\.nq$/,
    check: (_, dir) =>
      assert.ok(
        new Parser({ format: 'N-Quads' }).parse(readFileSync(path.join(dir, 'capture.nq'), 'utf8')).length > 5000,
      ),
  },
  { match: /> (capture|graph)\.ttl\b/, check: (_, dir) => assert.ok(readdirTurtle(dir) > 5000) },
  {
    match: /\| mcp-ld lower > again\.jsonl$/,
    check: (_, dir) =>
      assert.deepEqual(
        jsonLines(path.join(dir, 'again.jsonl')).map((r) => r.msg),
        jsonLines(path.join(dir, 'capture.jsonl')).map((r) => r.msg),
      ),
  },
  {
    match: /^mcp-ld ingest /,
    check: ({ stderr }) =>
      assert.match(
        stderr,
        /^mcp-ld ingest: 220 messages in 1 session → \d+ quads; .*stored \d+ quads in \d+ batch(es)? into \S+$/m,
      ),
  },
  {
    match: /^mcp-ld contexts --out /,
    check: ({ stdout }) => assert.ok(stdout.split('\n').filter((line) => line.endsWith('.jsonld')).length > 100),
  },
  {
    match: /^mcp-ld ontology --format rdfxml > /,
    check: (_, dir) => assert.match(readFileSync(path.join(dir, 'mcp-ld.rdf'), 'utf8'), /<rdf:RDF/),
  },
  {
    match: /^mcp-ld ontology --shapes .*> (\S+)$/,
    check: (_, dir, command) =>
      assert.ok(
        new Parser({ format: 'Turtle' }).parse(readFileSync(path.join(dir, /> (\S+)$/.exec(command)![1]!), 'utf8'))
          .length > 1000,
      ),
  },
  {
    match: /--format csv$|-H 'accept: text\/csv'/,
    check: ({ stdout }) => assert.match(stdout, /^[A-Za-z?][\w?,]*\r?\n([^\n]*\r?\n)+$/),
  },
  {
    match: /--format jsonl$|accept: application\/jsonl/,
    check: ({ stdout }) =>
      stdout
        .trimEnd()
        .split('\n')
        .forEach((line) => assert.equal(typeof JSON.parse(line), 'object')),
  },
  { match: /^mcp-ld query /, check: ({ stdout }) => assert.match(stdout, /^\S.*\n-+( +-+)*\n(.*\n)*\(\d+ rows?\)\n$/) },
  {
    match: /^mcp-ld repair /,
    check: ({ stdout }) => assert.match(stdout, /reads whole \(\d+ writes?\): nothing to repair\nsessions in .*: /),
  },
  { match: /-w '%\{http_code\}\\n'/, check: ({ stdout }) => assert.match(stdout, /^2\d\d\n$/) },
  {
    match: /-o mcp-ld\.rdf$/,
    check: (_, dir) => assert.match(readFileSync(path.join(dir, 'mcp-ld.rdf'), 'utf8'), /<rdf:RDF/),
  },
  { match: /^cp /, check: (_, dir) => assert.ok(existsSync(path.join(dir, 'capture.jsonl'))) },
  { match: /^curl /, check: ({ stdout }) => assert.ok(stdout.length > 0 && !isProblem(stdout), stdout.slice(0, 300)) },
];

function jsonLines(file: string): { msg?: unknown }[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg?: unknown });
}

function readdirTurtle(dir: string): number {
  const file = ['capture.ttl', 'graph.ttl']
    .map((name) => path.join(dir, name))
    .filter(existsSync)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
  return new Parser({ format: 'Turtle' }).parse(readFileSync(file, 'utf8')).length;
}

describe('README: every shell example runs as written', function () {
  this.timeout(300_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-readme-'));
  const bin = path.join(dir, '.bin');
  const env = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env['PATH']}`,
    XDG_CACHE_HOME: path.join(dir, '.cache'),
    MCPLD_OWNER_IDLE_MS: '1000',
    MCPLD_LOG_LEVEL: 'error',
  };
  const services: { child: ChildProcess; port: number }[] = [];

  const serve = (extra: Record<string, string>) =>
    new Promise<{ child: ChildProcess; port: number }>((resolve, reject) => {
      const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0'], { cwd: dir, env: { ...env, ...extra } });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
        if (port) resolve({ child, port: Number(port) });
      });
      child.on('exit', (code) => reject(new Error(`mcp-ld serve exited ${code}: ${stderr}`)));
    });

  before(async () => {
    mkdirSync(bin);
    symlinkSync(cliPath, path.join(bin, 'mcp-ld'));
    symlinkSync(path.join(packageRoot, 'test'), path.join(dir, 'test'));
    mkdirSync(path.join(dir, 'tmp'));
    services.push(await serve({}), await serve({ MCPLD_WRITE_TOKEN: 's3cret' }));
  });
  after(() => {
    for (const { child } of services) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (command: string, port: number): Promise<Run> => {
    // The README's service is on port 8080 and its scratch files in /tmp: here, the test's service and directory.
    const local = command
      .replace(/(localhost|127\.0\.0\.1):8080/g, `127.0.0.1:${port}`)
      .replace(/ \/tmp\//g, ` ${dir}/tmp/`);
    return runProcess('sh', ['-c', local], { cwd: dir, env });
  };

  it('runs each example that can run offline, in order, and checks what it prints', async () => {
    const examples = readmeExamples();
    assert.ok(examples.length > 30, `${examples.length} examples found`);
    const skipped: string[] = [];
    for (const example of examples) {
      const reason =
        unrunnable.find(({ match }) => match.test(example.command))?.why ??
        (example.command.endsWith('# docker compose') ? 'talks to the Docker compose service' : undefined);
      if (reason) {
        skipped.push(`README line ${example.line}: ${example.command} (${reason})`);
        continue;
      }
      const result = await run(example.command, services[example.tokenService ? 1 : 0]!.port);
      const name = `README line ${example.line}: ${example.command}`;
      if (example.shown) {
        const expected = example.shown;
        const got = result.stdout.trimEnd().split('\n');
        const ellipsis = expected.indexOf('…');
        if (ellipsis < 0) assert.deepEqual(got, expected, name);
        else {
          assert.deepEqual(got.slice(0, ellipsis), expected.slice(0, ellipsis), name);
          assert.deepEqual(
            got.slice(got.length - (expected.length - ellipsis - 1)),
            expected.slice(ellipsis + 1),
            name,
          );
        }
        continue;
      }
      assert.equal(result.code, 0, `${name}\n${result.stderr.slice(-2000)}`);
      const shape = shapes.find(({ match }) => match.test(example.command));
      assert.ok(shape, `${name}: no output shape is known for it (add one, or name it as unrunnable with why)`);
      try {
        shape.check(result, dir, example.command);
      } catch (error) {
        throw new Error(
          `${name}: ${(error as Error).message}\nstdout: ${result.stdout.slice(0, 500)}\nstderr: ${result.stderr.slice(0, 500)}`,
        );
      }
    }
    assert.equal(skipped.length, 8, `the examples not run:\n${skipped.join('\n')}`);
  });
});
