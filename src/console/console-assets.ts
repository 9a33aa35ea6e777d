// The web console's built files (dist/console: index.html and assets/, made by console/build.mjs from console/src),
// read into memory once with their media types and ETags. Only files the build wrote can be served: a name is looked
// up, never joined to a path. No HTTP here: src/api/routes/console.ts serves them.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../core/paths.js';

/** The page may load and call only this service; styles may be set inline (the SPARQL editor sets them). */
export const consolePolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const consoleDir = path.join(packageRoot, 'dist', 'console');

export interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/** The console's files by their path below dist/console (`index.html`, `assets/console.js`); empty when not built. */
export function readConsoleFiles(dir: string = consoleDir): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const type = types[path.extname(entry.name)];
    if (type === undefined) continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = readFileSync(file);
    const name = path.relative(dir, file).split(path.sep).join('/');
    files.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return files;
}
