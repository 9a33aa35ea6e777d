// Runs the real bin/mcp-ld in a child process, the way users run it, and captures what it prints.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const cliPath = path.join(packageRoot, 'bin', 'mcp-ld');

interface RunOptions {
  input?: string | Uint8Array;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runProcess(process.execPath, [cliPath, ...args], options);
}

/** Runs any program (a shell line: `sh -c …`) the same way, and captures what it prints. */
export function runProcess(program: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: options.cwd ?? packageRoot, env: options.env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
