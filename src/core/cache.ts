// The cache of derived data under the package's own dist/.schema-cache (parsed YAML, the schema snapshot, lifting
// plans, compiled validators): each entry is named by a hash of everything it is derived from — the schema files,
// the code that derives it, library versions — so a change to any of them misses. Nothing outside the package.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './paths.js';

export const cacheDir = path.join(packageRoot, 'dist', '.schema-cache');

/** SHA-256 (hex) of one text or byte string. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A key for data derived from all of `parts`: the hash of their hashes, so that no two lists of parts share one. */
export function contentKey(parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(sha256(part));
  return hash.digest('hex');
}

/** What identifies the compiled code in `files` (absolute paths): part of the key of anything that code derives. */
export function codeVersion(files: readonly string[]): string {
  return contentKey(files.map((file) => readFileSync(file)));
}

/** The compiled modules (`.js` files) of directory `dir`, in a stable order. */
export function moduleFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** A name of one's own beside `file`, to write under before renaming into place (worker threads share the pid). */
function temporaryName(file: string): string {
  return `${file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
}

/** Path of cache entry `name`. */
export function cachePath(name: string): string {
  return path.join(cacheDir, name);
}

/** The text of cache entry `name`, or undefined when it is not there (or unreadable). */
export function readCached(name: string): string | undefined {
  try {
    return readFileSync(cachePath(name), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes cache entry `name` all at once (a temporary file renamed into place, so a concurrent reader sees the whole
 * file or none). Returns false when it cannot: a read-only installation simply derives the data at every start.
 */
export function writeCached(name: string, text: string): boolean {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const temporary = temporaryName(cachePath(name));
    writeFileSync(temporary, text);
    renameSync(temporary, cachePath(name));
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes cache entry `name` as a directory holding `files` (name to text), built under a temporary name and renamed
 * into place; one already there (damaged, or just written by another process) is replaced. Returns false when the
 * package directory is read-only.
 */
export function writeCachedDirectory(name: string, files: Record<string, string>): boolean {
  const target = cachePath(name);
  const temporary = temporaryName(target);
  try {
    mkdirSync(temporary, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(temporary, file), text);
    try {
      renameSync(temporary, target);
    } catch {
      const replaced = `${temporary}.old`;
      renameSync(target, replaced);
      renameSync(temporary, target);
      rmSync(replaced, { recursive: true, force: true });
    }
    return true;
  } catch {
    try {
      rmSync(temporary, { recursive: true, force: true });
    } catch {
      // nothing was written
    }
    return false;
  }
}
