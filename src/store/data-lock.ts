// The lock of a data directory: a file naming the process that has it open, created exclusively. A second opener gets
// a clear error naming that process; a lock left by a process that no longer exists is taken over:
// - on the same host, when its pid is gone or was reused by a process that started later;
// - from another host (a new container on the same volume after a crash), when its heartbeat stopped: the owner renews
//   the lock file's modification time every `heartbeatMs`, and a lock not renewed for `staleAfterMs` is dead. Times
//   are compared with this host's clock, so hosts sharing a volume need clocks within a few seconds of each other.
// An owner whose lock was taken over (its heartbeat found another token in the file) stops writing: `assertHeld`.
// The lock also says how the holder serves the other processes (store-owner.ts): the Unix socket it listens on, or
// that it only reads (a `query` with the directory to itself) and serves nobody.
import { hostname } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import { storeLocked } from './store-errors.js';

export const lockFileName = 'LOCK';

interface LockTiming {
  /** How often the owner renews its lock. */
  heartbeatMs: number;
  /** How long a lock from another host may go unrenewed before it counts as dead (a few missed heartbeats, and more
   *  than the longest the event loop is expected to stall). */
  staleAfterMs: number;
}

const defaultLockTiming: LockTiming = { heartbeatMs: 10_000, staleAfterMs: 60_000 };

interface LockOwner {
  pid: number;
  host: string;
  since: string;
  /** The socket on which the holder serves the directory to other processes. */
  socket?: string;
  /** The holder only reads, and serves nobody: writers wait for it to finish. */
  readOnly?: boolean;
}

/** What a lock says of its holder, and whether that process still runs (`live`; a lock from another host is live
 *  until its heartbeat stops). */
export interface LockHolder extends LockOwner {
  /** The lock file's text: the holder's token, which it repeats when a client connects to its socket. */
  token: string;
  live: boolean;
  /** The holder runs on this host (its socket can be reached). */
  local: boolean;
}

/** How the process taking a lock serves the directory (see LockOwner). */
export type LockRole = Pick<LockOwner, 'socket' | 'readOnly'>;

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
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return undefined;
    return {
      pid: owner.pid,
      host: owner.host,
      since: String(owner.since ?? ''),
      ...(typeof owner.socket === 'string' ? { socket: owner.socket } : {}),
      ...(owner.readOnly === true ? { readOnly: true } : {}),
    };
  } catch {
    return undefined; // half-written by a process that died while taking it
  }
}

/** How long ago (ms) the lock file was last written or renewed; undefined when it is gone. */
async function unrenewedFor(file: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Who holds the lock of `dir` now, or undefined when nobody does (no lock file, or a half-written one). */
export async function readLockHolder(
  dir: string,
  timing: LockTiming = defaultLockTiming,
): Promise<LockHolder | undefined> {
  const file = path.join(dir, lockFileName);
  const token = await readText(file);
  const holder = parseOwner(token);
  if (!holder || token === undefined) return undefined;
  const local = holder.host === hostname();
  const live = local ? alive(holder.pid, holder.since) : ((await unrenewedFor(file)) ?? Infinity) < timing.staleAfterMs;
  return { ...holder, token, live, local };
}

export class DataLock {
  private lostTo: string | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    readonly file: string,
    private readonly token: string,
    timing: LockTiming,
  ) {
    this.heartbeat = setInterval(() => void this.renew(), timing.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Takes the lock of `dir`, or throws McpLdError `store.locked` (423) when a live process holds it. */
  static async acquire(dir: string, timing: LockTiming = defaultLockTiming, role: LockRole = {}): Promise<DataLock> {
    const file = path.join(dir, lockFileName);
    const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), ...role };
    const token = JSON.stringify(owner);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const handle = await open(file, 'wx');
        try {
          await handle.writeFile(token);
          await handle.sync();
        } catch (error) {
          // Created but not written (a full disk): not a lock anyone should have to take over.
          await handle.close();
          await unlink(file).catch(() => undefined);
          throw error;
        }
        await handle.close();
        return new DataLock(file, token, timing);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = await readText(file);
      if (text === undefined) continue; // released meanwhile
      const holder = parseOwner(text);
      if (holder && holder.host === owner.host && alive(holder.pid, holder.since)) {
        const who =
          holder.pid === process.pid
            ? 'this process (opened twice)'
            : `process ${holder.pid} on ${holder.host}, since ${holder.since}`;
        throw storeLocked(`${dir} is in use by ${who}; stop it first (if that process is gone, delete ${file})`);
      }
      const quiet = holder && holder.host !== owner.host ? await unrenewedFor(file) : undefined;
      if (holder && quiet !== undefined && quiet < timing.staleAfterMs) {
        const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;
        throw storeLocked(
          `${dir} is in use by process ${holder.pid} on host ${holder.host}, since ${holder.since} (lock renewed ${seconds(quiet)} ago); ` +
            `if that host is gone, the lock is taken over once it has gone ${seconds(timing.staleAfterMs)} without renewal`,
        );
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

  /** The lock file's text, which names this process. */
  get ownToken(): string {
    return this.token;
  }

  /** Throws McpLdError `store.locked` when another process has taken this lock over: writing on would corrupt what
   *  that process keeps. */
  assertHeld(): void {
    if (this.lostTo !== undefined)
      throw storeLocked(`${this.file} was taken over by ${this.lostTo}; this process no longer writes there`);
  }

  private async renew(): Promise<void> {
    if (this.lostTo !== undefined) return;
    const text = await readText(this.file);
    if (text === this.token) {
      const now = new Date();
      await utimes(this.file, now, now).catch(() => undefined);
      return;
    }
    const holder = parseOwner(text);
    this.lostTo = holder ? `process ${holder.pid} on ${holder.host}` : 'another process (or it was deleted)';
    clearInterval(this.heartbeat);
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    try {
      if ((await readFile(this.file, 'utf8')) === this.token) await unlink(this.file);
    } catch {
      // already gone
    }
  }
}
