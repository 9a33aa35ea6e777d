// Stage 7, tap: a transparent stdio relay in front of an MCP server. The client launches mcp-ld in place of the
// server; mcp-ld spawns the real server and relays stdin→server and server→stdout byte for byte (stderr passes
// through), while a Recorder observes the lines. Exit codes and signals propagate; on exit, everything recorded is
// flushed before the tap exits.
import { spawn } from 'node:child_process';
import type { StdioObserver } from './recorder.js';

export interface TapStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

const forwardedSignals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const signalNumbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Runs the server command until it exits; resolves to the exit code the tap should exit with. */
export async function relay(
  command: string,
  args: string[],
  recorder: StdioObserver,
  streams: TapStreams,
  onSpawnError: (error: Error) => void,
): Promise<number> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const handlers = forwardedSignals.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);

  // The relay: plain pipes (backpressure included). The recorder listens beside them and never writes.
  streams.stdin.pipe(child.stdin);
  child.stdout.pipe(streams.stdout);
  streams.stdin.on('data', (chunk: Buffer) => recorder.observe('c2s', chunk));
  child.stdout.on('data', (chunk: Buffer) => recorder.observe('s2c', chunk));
  // A server that exits before reading everything, or a client that is gone: not the tap's failure.
  child.stdin.on('error', () => {});
  streams.stdout.on('error', () => {});

  const code = await new Promise<number>((resolve) => {
    child.on('error', (error) => {
      onSpawnError(error);
      resolve(127);
    });
    child.on('close', (exitCode, signal) => resolve(exitCode ?? 128 + (signal ? (signalNumbers[signal] ?? 0) : 0)));
  });
  for (const [signal, handler] of handlers) process.off(signal, handler);
  streams.stdin.unpipe(child.stdin);
  recorder.end();
  return code;
}
