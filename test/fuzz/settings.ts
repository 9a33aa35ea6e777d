// How the fuzz properties run: in `npm test`, a fixed seed and a bounded count per property; in `npm run fuzz`
// (FUZZ_LONG=1), many more runs from a random seed printed at the start. FUZZ_SEED, FUZZ_RUNS (and FUZZ_PATH, from a
// failure's report) replay a run. Every property prints how many runs it made.
import fc from 'fast-check';

const long = process.env['FUZZ_LONG'] === '1';
/** How many times more runs `npm run fuzz` makes than `npm test`. */
const longFactor = 25;
const fixedSeed = 14;

function envInteger(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not ${text}`);
  return value;
}

const fuzzSeed = envInteger('FUZZ_SEED') ?? (long ? Math.floor(Math.random() * 2 ** 31) : fixedSeed);
const fuzzRuns = envInteger('FUZZ_RUNS');
const fuzzPath = process.env['FUZZ_PATH'];

let announced = false;

/** The number of runs of a property whose `npm test` count is `runs` (and `npm run fuzz` count `longRuns`). */
function runsOf(runs: number, longRuns = runs * longFactor): number {
  return fuzzRuns ?? (long ? longRuns : runs);
}

/** Runs `property` (seeded, bounded), prints its run count, and fails with fast-check's report (seed, path, shrunk
 *  counterexample) if it does not hold. */
export async function check<T>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<T> | fc.IPropertyWithHooks<T>,
  runs: number,
  tally?: Tally,
  longRuns?: number,
): Promise<void> {
  if (!announced) {
    announced = true;
    process.stdout.write(`      fuzz: seed ${fuzzSeed}${long ? ' (npm run fuzz: replay with FUZZ_SEED)' : ''}\n`);
  }
  const parameters: fc.Parameters<T> = {
    seed: fuzzSeed,
    numRuns: runsOf(runs, longRuns),
    includeErrorInReport: true,
    ...(fuzzPath ? { path: fuzzPath } : {}),
  };
  const details = await fc.check(property as fc.IAsyncProperty<T>, parameters);
  process.stdout.write(
    `      fuzz: ${name}: ${details.numRuns} runs${details.numSkips ? ` (${details.numSkips} skipped)` : ''}${tally && tally.size > 0 ? `; ${tally}` : ''}\n`,
  );
  if (details.failed)
    throw new Error(
      `${name}: ${fc.defaultReportMessage(details)}\n(replay: FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''} FUZZ_RUNS=${runsOf(runs, longRuns)})`,
    );
}

/** Counts of what the runs of a property met (answer statuses, refusal codes), printed beside its run count. */
export class Tally {
  private readonly counts = new Map<string, number>();

  add(what: string | number): void {
    this.counts.set(String(what), (this.counts.get(String(what)) ?? 0) + 1);
  }

  get size(): number {
    return this.counts.size;
  }

  toString(): string {
    return [...this.counts]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([what, n]) => `${what} ×${n}`)
      .join(', ');
  }
}
