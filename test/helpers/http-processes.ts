// Real processes for the HTTP tests: `mcp-ld proxy` in front of a target, and the reference "everything" server of
// May 2025 (server-everything 2025.5.12 on SDK 1.11.2), which speaks HTTP+SSE (`sse`) and Streamable HTTP
// (`streamableHttp`). Each resolves once the process says it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cliPath } from './run-cli.js';
import { freePort } from './ports.js';

const require = createRequire(import.meta.url);
const everything2025 = path.join(
  path.dirname(require.resolve('server-everything-2025.5.12/package.json')),
  'dist',
  'index.js',
);

/** Starts a process and resolves once its stdout or stderr (together) matches `ready`. */
export function startUntil(
  command: string,
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    let resolved = false;
    const read = (text: string) => {
      seen += text;
      const match = seen.match(ready);
      if (match && !resolved) {
        resolved = true;
        resolve({ child, match, output: () => seen });
      }
    };
    child.stdout!.setEncoding('utf8').on('data', read);
    child.stderr!.setEncoding('utf8').on('data', read);
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}) before it was ready: ${seen}`)));
  });
}

/** Stops a process with SIGTERM and resolves with its exit code. */
export function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

interface RunningProxy {
  child: ChildProcess;
  /** The proxy's origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** Everything it printed so far. */
  output: () => string;
}

/** Starts `mcp-ld proxy`. It waits up to a minute at exit for the store to take the last records (10 s by default):
 *  these tests read the graph after it, and a loaded CI machine can be slow to start the data directory's owner. */
export async function startProxy(target: string, args: string[] = []): Promise<RunningProxy> {
  const { child, match, output } = await startUntil(
    process.execPath,
    [cliPath, 'proxy', '--target', target, '--port', '0', ...args],
    /at (http:\/\/127\.0\.0\.1:\d+)/,
    { ...process.env, MCPLD_TAP_FLUSH_MS: '60000' },
  );
  return { child, origin: match[1]!, output };
}

/** server-everything 2025.5.12 in mode `sse` (HTTP+SSE: GET /sse, POST /message) or `streamableHttp` (/mcp). */
export async function startEverything2025(
  mode: 'sse' | 'streamableHttp',
): Promise<{ child: ChildProcess; origin: string }> {
  const port = await freePort();
  const { child } = await startUntil(
    process.execPath,
    [everything2025, mode],
    /listening on port|Server is running on port/,
    { ...process.env, PORT: String(port) },
  );
  return { child, origin: `http://127.0.0.1:${port}` };
}
