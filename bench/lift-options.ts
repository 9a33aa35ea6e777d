// The options of the converter benchmark (bench/lift.ts): command-line flags first, then environment variables,
// then defaults. The one place in bench/lift that reads process.argv and process.env.
import { parseArgs } from 'node:util';

export interface LiftBenchOptions {
  /**
   * Messages in the workload at least (whole repetitions of the fixtures, so a little more when it does not divide).
   */
  messages: number;
  /** Messages lifted before the timed loop of each engine, to warm the JIT and the caches (not timed). */
  warmup: number;
  /** Messages the reference engine is timed on (the first ones of the workload); all of them when undefined. */
  referenceMessages?: number;
  /** Keep the temporary workload file (its path is printed) instead of removing it. */
  keep: boolean;
}

export const liftBenchUsage = `node dist/bench/lift.js [--messages N] [--warmup N] [--reference-messages N] [--keep]
  --messages N            workload size, at least N messages (env MCPLD_BENCH_MESSAGES, default 30000)
  --warmup N              messages lifted before each timed loop (env MCPLD_BENCH_WARMUP, default 480)
  --reference-messages N  time the reference engine on the first N messages only (env MCPLD_BENCH_REFERENCE_MESSAGES,
                          default: the whole workload)
  --keep                  keep the workload file`;

export class LiftBenchUsageError extends Error {}

function count(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new LiftBenchUsageError(`${name} must be an integer >= ${min}, not "${value}"`);
  return n;
}

export function readLiftBenchOptions(
  argv: string[] = process.argv.slice(2),
  env: Record<string, string | undefined> = process.env,
): LiftBenchOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        messages: { type: 'string' },
        warmup: { type: 'string' },
        'reference-messages': { type: 'string' },
        keep: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new LiftBenchUsageError((error as Error).message);
  }
  const options: LiftBenchOptions = {
    messages: count('--messages', values.messages ?? env['MCPLD_BENCH_MESSAGES'] ?? '30000', 1),
    warmup: count('--warmup', values.warmup ?? env['MCPLD_BENCH_WARMUP'] ?? '480', 0),
    keep: values.keep ?? false,
  };
  const reference = values['reference-messages'] ?? env['MCPLD_BENCH_REFERENCE_MESSAGES'];
  if (reference !== undefined) options.referenceMessages = count('--reference-messages', reference, 1);
  return options;
}
