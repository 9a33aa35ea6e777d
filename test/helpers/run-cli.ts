// Runs the real bin/mcp-ld in a child process, the way users run it, and captures what it prints.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface CliBytesResult {
  code: number | null;
  stdout: Buffer;
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

/** Runs bin/mcp-ld the same way, and gives back the bytes it wrote to stdout exactly (for what relays bytes). */
export function runCliBytes(args: string[], options: RunOptions = {}): Promise<CliBytesResult> {
  return collect(process.execPath, [cliPath, ...args], options);
}

/** Runs any program (a shell line: `sh -c …`) the same way, and captures what it prints. */
export async function runProcess(program: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  const { code, stdout, stderr } = await collect(program, args, options);
  return { code, stdout: stdout.toString('utf8'), stderr };
}

function collect(program: string, args: string[], options: RunOptions): Promise<CliBytesResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: options.cwd ?? packageRoot, env: options.env ?? process.env });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr }));
    // A process that exits before it reads its input closes the pipe (EPIPE): its exit code and output are the result.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
