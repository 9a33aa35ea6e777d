// The lock of a data directory: a file naming the process that has it open, created exclusively. A second opener gets
// a clear error naming that process; a lock left by a process that no longer exists (same host; its pid gone, or
// reused by a process that started later) is taken over.
import { hostname } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { storeLocked } from './store-errors.js';

export const lockFileName = 'LOCK';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** When a process started (ms since the epoch), from /proc on Linux; undefined elsewhere or when unknown. */
function startedAt(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]); // field 22 of stat: start time in clock ticks after boot
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + ticks * 10 : undefined; // USER_HZ is 100
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a lock at `since` still runs: its pid exists and was not reused since. */
function alive(pid: number, since: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A pid taken by a process that started after the lock was written (a restarted container often gets the same
  // pid, even our own) is not the lock's owner.
  const written = Date.parse(since);
  const started = pid === process.pid ? performance.timeOrigin : startedAt(pid);
  return !(Number.isFinite(written) && started !== undefined && started > written + 1000);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

function parseOwner(text: string | undefined): LockOwner | undefined {
  try {
    const owner = JSON.parse(text ?? '') as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? { pid: owner.pid, host: owner.host, since: String(owner.since ?? '') } : undefined;
  } catch {
    return undefined; // half-written by a process that died while taking it
  }
}

export class DataLock {
  private constructor(
    readonly file: string,
    private readonly token: string,
  ) {}

  /** Takes the lock of `dir`, or throws McpLdError `store.locked` (423) when a live process holds it. */
  static async acquire(dir: string): Promise<DataLock> {
    const file = path.join(dir, lockFileName);
    const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    const token = JSON.stringify(owner);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const handle = await open(file, 'wx');
        try {
          await handle.writeFile(token);
          await handle.sync();
        } finally {
          await handle.close();
        }
        return new DataLock(file, token);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = await readText(file);
      if (text === undefined) continue; // released meanwhile
      const holder = parseOwner(text);
      if (holder && (holder.host !== owner.host || alive(holder.pid, holder.since))) {
        const who = holder.pid === process.pid ? 'this process (opened twice)' : `process ${holder.pid} on ${holder.host}, since ${holder.since}`;
        throw storeLocked(`${dir} is in use by ${who}; stop it first (if that process is gone, delete ${file})`);
      }
      // Stale (its process is gone) or half-written: move it aside, and make sure what was moved is the stale lock and
      // not one that another process took over meanwhile (then put that one back and give up).
      const aside = `${file}.stale-${process.pid}`;
      try {
        await rename(file, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      if ((await readText(aside)) !== text) {
        await link(aside, file).catch(() => undefined);
        await unlink(aside).catch(() => undefined);
        throw storeLocked(`${dir} is being opened by another process right now`);
      }
      await unlink(aside);
    }
    throw storeLocked(`could not take the lock ${file}: other processes keep taking it`);
  }

  async release(): Promise<void> {
    try {
      if ((await readFile(this.file, 'utf8')) === this.token) await unlink(this.file);
    } catch {
      // already gone
    }
  }
}
