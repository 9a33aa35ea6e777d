// Starts a throwaway Virtuoso (Debian's virtuoso-opensource) on loopback for the remote-store tests and bench:store's
// remote mode: its own database directory and free ports, a service user allowed to update, stopped when the process
// exits.
// Where Virtuoso cannot run, the remote tests skip loudly on a developer machine and fail in CI
// (CI=true or MCPLD_TEST_VIRTUOSO=1, which .ci/run sets after installing it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

export interface Virtuoso {
  /** The authenticated SPARQL endpoint (queries and updates); the Graph Store endpoint is derived from it. */
  queryUrl: string;
  user: string;
  password: string;
  /** The HTTP origin, e.g. http://127.0.0.1:28890. */
  origin: string;
  isqlPort: number;
  /** Stops the server (and with it the store). */
  stop(): Promise<void>;
  /** Starts it again on the same database and ports after stop(). */
  restart(): Promise<void>;
  /** Whether the server process is running (it exits on a crash). */
  running(): boolean;
  /** The server process's peak resident memory so far (VmHWM), in MiB; NaN when it is not running. */
  peakRssMiB(): number;
  /** Runs SQL through isql-vt as dba (e.g. `checkpoint;`). */
  sql(statement: string): void;
  /** The end of the server's log (virtuoso.log and its output): why it stopped, after a crash. */
  logTail(): string;
}

interface VirtuosoOptions {
  /** Database pages held in memory (8 KiB each); Virtuoso's own default (10,000) when not given. */
  numberOfBuffers?: number;
  /** Dirty pages before Virtuoso writes them out; default Virtuoso's. */
  maxDirtyBuffers?: number;
  /** Rows a SPARQL answer is cut at. The tests' default is low on purpose (Debian's own): cut results must be
   * reported. */
  resultSetMaxRows?: number;
  /** How long it may take to answer after start (default 90 s; large buffers on a busy machine take longer). */
  startTimeoutMs?: number;
}

/** Whether the remote tests must run (and fail when Virtuoso cannot start) rather than skip. */
function virtuosoRequired(): boolean {
  return process.env['CI'] === 'true' || process.env['MCPLD_TEST_VIRTUOSO'] === '1';
}

function which(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

async function waitUntilUp(origin: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`virtuoso-t exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${origin}/sparql?query=${encodeURIComponent('ASK {}')}`, {
        signal: AbortSignal.timeout(2000),
      });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Virtuoso did not answer on ${origin} within ${timeoutMs} ms:\n${log()}`);
}

function isql(port: number, sql: string, timeoutMs = 30_000): void {
  const result = spawnSync('isql-vt', [`127.0.0.1:${port}`, 'dba', 'dba', `exec=${sql}`], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  if (result.status !== 0 || /\*\*\* Error/.test(result.stdout + result.stderr)) {
    throw new Error(`isql-vt failed (${result.status}): ${result.stdout}${result.stderr}`);
  }
}

let shared: Promise<Virtuoso> | undefined;

/** One Virtuoso for the whole test run, started on first use. */
function sharedVirtuoso(): Promise<Virtuoso> {
  shared ??= startVirtuoso();
  return shared;
}

export async function startVirtuoso(options: VirtuosoOptions = {}): Promise<Virtuoso> {
  if (!which('virtuoso-t') || !which('isql-vt')) {
    throw new Error(
      "virtuoso-t / isql-vt not found: install Debian's virtuoso-opensource (apt-get install virtuoso-opensource), as .ci/run does",
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-virtuoso-'));
  const isqlPort = await freePort();
  const httpPort = await freePort();
  writeFileSync(
    path.join(dir, 'virtuoso.ini'),
    [
      '[Database]',
      'DatabaseFile=virtuoso.db',
      'ErrorLogFile=virtuoso.log',
      'LockFile=virtuoso.lck',
      'TransactionFile=virtuoso.trx',
      'xa_persistent_file=virtuoso.pxa',
      '[TempDatabase]',
      'DatabaseFile=virtuoso-temp.db',
      'TransactionFile=virtuoso-temp.trx',
      '[Parameters]',
      `ServerPort=127.0.0.1:${isqlPort}`,
      ...(options.numberOfBuffers !== undefined ? [`NumberOfBuffers=${options.numberOfBuffers}`] : []),
      ...(options.maxDirtyBuffers !== undefined ? [`MaxDirtyBuffers=${options.maxDirtyBuffers}`] : []),
      '[HTTPServer]',
      `ServerPort=127.0.0.1:${httpPort}`,
      '[SPARQL]',
      // Low on purpose by default (Debian's own): the tests check that cut results are reported or paged, not lost.
      `ResultSetMaxRows=${options.resultSetMaxRows ?? 10000}`,
      '',
    ].join('\n'),
  );
  const origin = `http://127.0.0.1:${httpPort}`;
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    output = '';
    child = spawn('virtuoso-t', ['+configfile', 'virtuoso.ini', '+foreground'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
    child.unref();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    (child.stderr as unknown as { unref?: () => void }).unref?.();
    await waitUntilUp(origin, child, () => output, options.startTimeoutMs ?? 90_000);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    try {
      isql(isqlPort, 'checkpoint; shutdown;');
    } catch {
      running.kill('SIGTERM');
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        running.kill('SIGKILL');
        resolve();
      }, 15_000);
      running.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  };
  process.once('exit', () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    await start();
  } catch (error) {
    child?.kill('SIGKILL');
    throw error;
  }
  const user = 'mcpld';
  const password = `pw-${process.pid}`;
  isql(isqlPort, `DB.DBA.USER_CREATE('${user}', '${password}'); GRANT SPARQL_UPDATE TO "${user}";`);
  const peakRssMiB = () => {
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return NaN;
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  };
  return {
    queryUrl: `${origin}/sparql-auth`,
    user,
    password,
    origin,
    isqlPort,
    stop,
    restart: start,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    peakRssMiB,
    sql: (statement) => isql(isqlPort, statement, 600_000),
    logTail: () => {
      let log = '';
      try {
        log = readFileSync(path.join(dir, 'virtuoso.log'), 'utf8').slice(-3000);
      } catch {
        // no log yet
      }
      return `${log}\n${output}`;
    },
  };
}

/** The shared Virtuoso, or — when it cannot start on a developer machine — a loud banner and the test skipped. */
export async function virtuosoOrSkip(test: Mocha.Context): Promise<Virtuoso> {
  try {
    return await sharedVirtuoso();
  } catch (error) {
    if (virtuosoRequired()) throw error;
    console.warn(skipBanner((error as Error).message.split('\n')[0]!));
    test.skip();
  }
}

/** The banner shown when the remote tests skip on a developer machine. */
function skipBanner(reason: string): string {
  const line = '!'.repeat(100);
  return `\n${line}\n!!! SKIPPING THE REMOTE-STORE (VIRTUOSO) TESTS: ${reason}\n!!! They run in CI (.ci/run installs virtuoso-opensource); set MCPLD_TEST_VIRTUOSO=1 to make them fail here instead.\n${line}\n`;
}
