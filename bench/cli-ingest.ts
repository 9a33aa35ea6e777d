// `mcp-ld ingest` as a whole process for the store benchmarks: its wall time, its peak RSS (bench/peak-rss-hook.js)
// and what it printed; shared by bench:store's embedded and remote modes.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../src/core/paths.js';

const peakRssHook = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'peak-rss-hook.js')).href;
const cliScript = path.join(packageRoot, 'bin', 'mcp-ld');

interface CliRun {
  seconds: number;
  peakRssMiB: number;
  stderr: string;
}

/** Runs `mcp-ld ingest FILE ARGS…` (extra environment in `env`) and times it from spawn to exit. */
export function runIngest(file: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const devNull = openSync('/dev/null', 'w');
    const child = spawn(process.execPath, ['--import', peakRssHook, cliScript, 'ingest', file, ...args], {
      stdio: ['ignore', devNull, 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    let rss = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (chunk: string) => (rss += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(devNull);
      if (code !== 0) return reject(new Error(`mcp-ld ingest exited with ${code}: ${stderr}`));
      const line = rss.trim().split('\n').pop();
      resolve({
        seconds: (performance.now() - started) / 1000,
        peakRssMiB: line ? (JSON.parse(line) as { maxRssKiB: number }).maxRssKiB / 1024 : NaN,
        stderr,
      });
    });
  });
}
