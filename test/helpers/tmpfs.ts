// A small real file system that fills up: a tmpfs of a given size, mounted for the disk-full tests (root can mount one;
// CI runs as root). Where mounting is not possible the tests skip loudly on a developer machine and fail when CI is
// set.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Mounts a tmpfs of `size` (as mount takes it: `2m`) on a new directory and returns it; skips the suite without one.
 */
export function mountTmpfsOrSkip(context: Mocha.Context, size: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-ld-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status === 0) return dir;
  rmdirSync(dir);
  const why = `cannot mount a ${size} tmpfs (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()})`;
  if (process.env['CI']) throw new Error(`${why}: the disk-full tests must run in CI (as root)`);
  console.warn(`    skipping the disk-full tests: ${why}; they run as root, and are mandatory when CI is set`);
  context.skip();
}

export function unmountTmpfs(dir: string): void {
  const unmounted = spawnSync('umount', [dir], { encoding: 'utf8' });
  if (unmounted.status !== 0) throw new Error(`umount ${dir} failed: ${unmounted.stderr}`);
  rmdirSync(dir);
}

/** Writes `file` until the file system has no room left (ENOSPC); returns its size. */
export function fillUp(file: string): number {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(4096, 0x2e);
  let size = 0;
  try {
    for (;;) size += writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return size;
}
