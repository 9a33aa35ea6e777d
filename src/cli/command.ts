// The shape of a CLI command and the helpers every command shares: option parsing with clear errors, and
// writing to stdout/stderr through an injectable pair of streams so tests can read what a command prints.
import { parseArgs } from 'node:util';
import type { EnvironmentVariable } from '../core/config.js';

export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

/**
 * One option of a command: what `parseArgs` reads (type, multiple, default) and what `--help` says of it, in one
 * declaration, so that the help cannot drift from what the command takes.
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  default?: string | boolean | string[];
  /** The value's placeholder in the help (`--data DIR`). */
  value?: string;
  /** What it does, for the help; without it, the description of its environment variable (`env`). */
  description?: string;
  /** The environment variable that sets it when the flag is not given. */
  env?: EnvironmentVariable;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The usage line(s) shown by `mcp-ld help NAME` and on a usage error. */
  usage: string;
  /** Every option the command takes: parsed from this declaration, and listed from it by `--help`. */
  options: OptionSpecs;
  /** The environment variables the command reads besides those of its options. */
  environment?: readonly EnvironmentVariable[];
  /** One or two command lines that show it at work (a test runs each that needs no service). */
  examples: readonly string[];
  /** Runs the command; resolves to the process exit code. */
  run(args: string[], io: CommandIo): Promise<number>;
}

/** Thrown for a wrong command line; the CLI prints it with the command's usage and exits with 2. */
export class UsageError extends Error {}

type Options = OptionSpecs;

/** How many edits (a character inserted, deleted, replaced, or two neighbours swapped) turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate closest to `wrong`, when it is close enough to be what was meant ("fromat" → "format"). */
export function nearest(wrong: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(wrong, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(wrong.length / 3)) ? best.name : undefined;
}

/** Node's parseArgs errors, said the way a person reads them: which option is wrong, and the one probably meant. */
function usageErrorOf(error: NodeJS.ErrnoException & Error, options: Options): UsageError {
  const names = Object.keys(options);
  const option = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const meant = nearest(option.replace(/^-+/, '').split('=')[0]!, names);
    return new UsageError(`unknown option ${option}${meant ? `; did you mean --${meant}?` : ''}`);
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return new UsageError(
      /argument missing/.test(error.message) ? `${option} needs a value` : `${option} takes no value`,
    );
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const extra = /'([^']*)'/.exec(error.message)?.[1];
    return new UsageError(
      `unexpected argument ${extra !== undefined ? `"${extra}"` : ''}: this command takes only options`.replace(
        '  ',
        ' ',
      ),
    );
  }
  return new UsageError(error.message);
}

export function parseOptions<O extends Options>(args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw usageErrorOf(error as NodeJS.ErrnoException & Error, options);
  }
}

export function write(stream: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
