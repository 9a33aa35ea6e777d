// One engine of the converter benchmark, run in a child process of its own so that its peak RSS is its own:
//   node dist/bench/lift-engine.js fast|fast-nquads|reference|baseline WORKLOAD.jsonl [WARMUP] [LIMIT|-] [CHECKPOINT]
// Parses the JSONL with parseInput (the same for every engine), warms up on the first WARMUP messages (fast and
// reference: re-keyed to sessions of their own, so the timed loop still sees new sessions), then times only the
// conversion loop over the first LIMIT messages (default: all) and prints one JSON line (LiftEngineResult).
// CHECKPOINT, when given, also reports the time taken by the first CHECKPOINT messages of the loop.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import jsonld from 'jsonld';
import { packageRoot } from '../src/core/paths.js';
import { loadSchema } from '../src/schema/index.js';
import { Lifter } from '../src/lift/lifter.js';
import { ReferenceEngine } from '../src/lift/reference.js';
import { parseInput } from '../src/lift/input.js';
import { isRawLine, type CaptureRecord } from '../src/lift/records.js';

const engines = ['fast', 'fast-nquads', 'reference', 'baseline'] as const;
export type EngineName = (typeof engines)[number];

const ogcContextFile = path.join(packageRoot, 'bench', 'fixtures', 'ogc-bblocks-mcp-context.jsonld');
/** The URL the baseline's messages name their context by (served from ogcContextFile, never fetched). */
const ogcContextUrl = 'https://example.org/bench/ogc-bblocks-mcp-context.jsonld';

export interface LoopTotals {
  messages: number;
  quads: number;
  seconds: number;
}

interface EngineFailure {
  /** The message's method, or `response to <method>` / `error response to <method>`. */
  kind: string;
  error: string;
  count: number;
}

export interface LiftEngineResult extends LoopTotals {
  engine: EngineName;
  /** Lines parseInput refused (not lifted by any engine). */
  unparsed: number;
  /** Messages lifted without an error (quads counts theirs). */
  lifted: number;
  /** Messages the engine threw on, by kind and error. */
  failures: EngineFailure[];
  /** Messages lifted with validation problems (fast and reference engines). */
  invalid: number;
  checkpoint?: LoopTotals;
  peakRssMiB: number;
}

/** Converts one record; returns its quad count and whether it had validation problems. */
type Convert = (
  record: CaptureRecord,
) => Promise<{ quads: number; invalid: boolean }> | { quads: number; invalid: boolean };

const refuseRemote = async (url: string): Promise<never> => {
  throw new Error(`remote document refused: ${url}`);
};

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function converter(engine: EngineName): Convert {
  if (engine === 'baseline') {
    // OGC's approach: the flat context named by URL in each message, jsonld.js toRDF to N-Quads. The context is read
    // once and served by the document loader, so jsonld.js resolves it from its cache by URL (an inline context
    // object would be re-keyed, by serializing it, on every call: measured about 20% slower, an unfair baseline).
    const contextDocument = JSON.parse(readFileSync(ogcContextFile, 'utf8')) as unknown;
    const documentLoader = async (url: string) => {
      if (url === ogcContextUrl) return { contextUrl: null, documentUrl: url, document: contextDocument };
      return refuseRemote(url);
    };
    return async (record) => {
      const document = { '@context': ogcContextUrl, ...record.msg } as jsonld.JsonLdDocument;
      const nquads = (await jsonld.toRDF(document, {
        format: 'application/n-quads',
        documentLoader: documentLoader as never,
      })) as unknown as string;
      return { quads: countLines(nquads), invalid: false };
    };
  }
  const lifter = new Lifter(loadSchema());
  if (engine === 'fast') {
    return (record) => {
      const lifted = lifter.lift(record);
      return { quads: lifted.quads.length, invalid: lifted.problems.length > 0 };
    };
  }
  if (engine === 'fast-nquads') {
    // The path convert and ingest take: N-Quads text, no term objects, encoded to UTF-8 as convert does (into one
    // reused buffer), so that the loop pays for the text's bytes wherever the lifter builds them.
    const scratch = Buffer.allocUnsafe(1 << 22);
    return (record) => {
      const lifted = lifter.liftToNQuads(record);
      scratch.write(lifted.nquads, 0, 'utf8');
      return { quads: lifted.quadCount, invalid: lifted.problems.length > 0 };
    };
  }
  const reference = new ReferenceEngine(lifter);
  return async (record) => {
    const lifted = await reference.lift(record);
    return { quads: lifted.quads.length, invalid: lifted.problems.length > 0 };
  };
}

/** What each record is, for reporting failures: its method, or the method of the request a response answers. */
function kinds(records: CaptureRecord[]): string[] {
  const requests = new Map<string, string>();
  return records.map((record) => {
    const { msg } = record;
    const key = `${record.session ?? ''}\u0000${JSON.stringify(msg['id'] ?? null)}`;
    if (typeof msg['method'] === 'string') {
      if ('id' in msg) requests.set(key, msg['method']);
      return msg['method'];
    }
    const answered = requests.get(key) ?? 'an unknown request';
    return `${'error' in msg && !('result' in msg) ? 'error response' : 'response'} to ${answered}`;
  });
}

/** An error's text without what differs between repetitions (session ids, message numbers), so failures group. */
function errorText(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}: ${'detail' in error ? String((error as { detail: unknown }).detail) : error.message}`
      : String(error);
  return text
    .replace(/bench-\d+-/g, 'bench-N-')
    .replace(/\/message\/\d+/g, '/message/N')
    .slice(0, 400);
}

function warmupRecord(record: CaptureRecord): CaptureRecord {
  return { ...record, session: `${record.session ?? 'default'}-warmup` };
}

async function runEngine(
  engine: EngineName,
  file: string,
  warmup: number,
  limit?: number,
  checkpoint?: number,
): Promise<LiftEngineResult> {
  const items = [...parseInput(readFileSync(file, 'utf8'))];
  // Messages only: the bench workload has no raw lines, and the baseline lifts messages.
  const all = items.flatMap((item) => (item.record && !isRawLine(item.record) ? [item.record] : []));
  const records = limit === undefined ? all : all.slice(0, limit);
  const kindOf = kinds(records);
  const convert = converter(engine);

  for (const record of all.slice(0, warmup)) {
    try {
      await convert(engine === 'baseline' ? record : warmupRecord(record));
    } catch {
      // counted in the timed loop
    }
  }

  const failures = new Map<string, EngineFailure>();
  let quads = 0;
  let lifted = 0;
  let invalid = 0;
  let reached: LoopTotals | undefined;
  const start = performance.now();
  for (let i = 0; i < records.length; i++) {
    if (checkpoint !== undefined && i === checkpoint)
      reached = { messages: i, quads, seconds: (performance.now() - start) / 1000 };
    try {
      const pending = convert(records[i]!);
      const result = pending instanceof Promise ? await pending : pending; // the fast engine never waits a tick
      quads += result.quads;
      lifted += 1;
      if (result.invalid) invalid += 1;
    } catch (error) {
      const kind = kindOf[i]!;
      const text = errorText(error);
      const failure = failures.get(`${kind}\u0000${text}`) ?? { kind, error: text, count: 0 };
      failure.count += 1;
      failures.set(`${kind}\u0000${text}`, failure);
    }
  }
  const seconds = (performance.now() - start) / 1000;
  if (checkpoint !== undefined && checkpoint >= records.length) reached = { messages: records.length, quads, seconds };

  const result: LiftEngineResult = {
    engine,
    messages: records.length,
    quads,
    seconds,
    unparsed: items.length - all.length,
    lifted,
    failures: [...failures.values()].sort((a, b) => b.count - a.count),
    invalid,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  if (reached) result.checkpoint = reached;
  return result;
}

function optionalCount(text: string | undefined): number | undefined {
  if (text === undefined || text === '-') return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count: ${text}`);
  return n;
}

const [engine, file, warmup, limit, checkpoint] = process.argv.slice(2);
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (!isMain) {
  // imported, not run
} else if (!engines.includes(engine as EngineName) || file === undefined) {
  process.stderr.write(
    'usage: node dist/bench/lift-engine.js fast|fast-nquads|reference|baseline WORKLOAD.jsonl [WARMUP] [LIMIT|-] [CHECKPOINT]\n',
  );
  process.exitCode = 2;
} else {
  const result = await runEngine(
    engine as EngineName,
    file,
    optionalCount(warmup) ?? 0,
    optionalCount(limit),
    optionalCount(checkpoint),
  );
  process.stdout.write(JSON.stringify(result) + '\n');
}
