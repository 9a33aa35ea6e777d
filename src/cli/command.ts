// The shape of a CLI command and the helpers every command shares: option parsing with clear errors, and
// writing to stdout/stderr through an injectable pair of streams so tests can read what a command prints.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The usage line(s) shown by `mcp-ld help NAME` and on a usage error. */
  usage: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[], io: CommandIo): Promise<number>;
}

/** Thrown for a wrong command line; the CLI prints it with the command's usage and exits with 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseOptions<O extends Options>(args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function write(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
