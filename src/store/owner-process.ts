// Starts the background owner of a data directory, `mcp-ld own --data DIR`: a process of its own (detached, no
// terminal), so that it outlives the command that needed it and serves every later one until it has been idle.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../../bin/mcp-ld', import.meta.url));

export interface StartedOwner {
  pid: number | undefined;
  exited(): number | null;
}

/** Starts it; `exited()` is its exit code once it has exited (0: another owner was quicker), else null. */
export function startOwnerProcess(dir: string): StartedOwner {
  let code: number | null = null;
  mkdirSync(dir, { recursive: true }); // its working directory, which the owner would create anyway
  // Its own session, no terminal, and the data directory as its working directory (it keeps no other one busy).
  const child = spawn(process.execPath, [cli, 'own', '--data', dir], { detached: true, stdio: 'ignore', cwd: dir });
  child.on('exit', (exitCode, signal) => (code = exitCode ?? (signal ? 128 : 1)));
  child.on('error', () => (code = 127));
  child.unref();
  return { pid: child.pid, exited: () => code };
}
