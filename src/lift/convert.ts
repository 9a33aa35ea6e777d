// The one lift-and-tally loop that every adapter feeds (mcp-ld convert and ingest, POST /convert, POST /ingest's
// thread): each input item accepted, lifted, counted into the summary users see (messages, quads, sessions, invalid
// messages, unknown methods, failed lines) and handed on. In strict mode the first failed line or invalid message
// stops the conversion with an error naming it.
import { isMcpLdError, McpLdError } from '../core/problem.js';
import type { InputItem } from './input.js';
import type { LiftedMeta, Lifter } from './lifter.js';
import type { InputRecord } from './records.js';
import type { Quad } from 'n3';
import { parseInput } from './input.js';

export interface FailedItem {
  line: number;
  index?: number;
  error: McpLdError;
}

export interface ConversionSummary {
  messages: number;
  /** Lines that were not JSON (kept as mld:RawLine). */
  rawLines: number;
  quads: number;
  sessions: number;
  invalid: number;
  unknownMethods: number;
  failed: FailedItem[];
  /** Messages per protocol version they were lifted by. */
  versions: Record<string, number>;
  /** Versions messages declared that mcp-ld does not know, with the known version each was lifted by instead. */
  unknownVersions: Record<string, string>;
}

/** What the loop does with each item: how a record is lifted, and what becomes of what it lifts. */
interface ConversionSteps<T extends LiftedMeta> {
  lift(record: InputRecord): T | Promise<T>;
  /** Takes a lifted item (writes it out, stores it, collects it). */
  take(lifted: T, item: InputItem): unknown;
  /** Called after every item, lifted or failed; true stops the loop (a store that failed). */
  after?(item: InputItem): boolean | void;
}

export class Conversion {
  private readonly sessions = new Set<string>();
  readonly summary: ConversionSummary = {
    messages: 0,
    rawLines: 0,
    quads: 0,
    sessions: 0,
    invalid: 0,
    unknownMethods: 0,
    failed: [],
    versions: {},
    unknownVersions: {},
  };

  constructor(private readonly options: { strict?: boolean } = {}) {}

  /**
   * Lifts and tallies `items` one by one. An item that did not parse, or whose lifting fails with an McpLdError, is a
   * failed line, and the loop goes on (strict mode: it is thrown).
   */
  async run<T extends LiftedMeta>(items: Iterable<InputItem>, steps: ConversionSteps<T>): Promise<void> {
    for (const item of items) {
      const record = item.error || !item.record ? this.fail(item, item.error!) : item.record;
      if (record) {
        // Only a promise is awaited: an await per item of a synchronous lift costs convert a tenth of its time.
        let lifted: T | Promise<T> | undefined;
        try {
          lifted = steps.lift(record);
          if (lifted instanceof Promise) lifted = await lifted;
        } catch (error) {
          if (!isMcpLdError(error)) throw error;
          this.fail(item, error);
        }
        if (lifted) {
          const taken = steps.take(this.tally(item, lifted as T), item);
          if (taken instanceof Promise) await taken;
        }
      }
      if (steps.after?.(item)) return;
    }
  }

  /** Counts a lifted message; in strict mode an invalid one stops the conversion. */
  private tally<T extends LiftedMeta>(item: InputItem, lifted: T): T {
    if (lifted.problems.length > 0 && this.options.strict) {
      const first = lifted.problems[0]!;
      throw McpLdError.of('lift.invalid-message', {
        detail: `${failedItemPlace(item)}: ${lifted.definition ?? 'message'} is invalid at ${first.instancePath || '/'}: ${first.message}`,
        pointer: first.instancePath,
        line: item.line,
      });
    }
    if (lifted.rawLine) this.summary.rawLines += 1;
    else this.summary.messages += 1;
    this.summary.quads += lifted.quadCount;
    if (lifted.problems.length > 0) this.summary.invalid += 1;
    if (lifted.unknownMethod) this.summary.unknownMethods += 1;
    if (!lifted.rawLine) this.summary.versions[lifted.version] = (this.summary.versions[lifted.version] ?? 0) + 1;
    if (lifted.unknownVersion !== undefined) this.summary.unknownVersions[lifted.unknownVersion] = lifted.version;
    this.sessions.add(lifted.session);
    this.summary.sessions = this.sessions.size;
    return lifted;
  }

  private fail(item: InputItem, error: McpLdError): undefined {
    if (this.options.strict) throw error;
    const failed: FailedItem = { line: error.line ?? item.line, error };
    if (item.index !== undefined) failed.index = item.index;
    this.summary.failed.push(failed);
    return undefined;
  }
}

/** Where a failed item is, as every report words it: `line 7`, or `line 1, batch item 3`. */
export function failedItemPlace(item: { line: number; index?: number }): string {
  return item.index !== undefined ? `line ${item.line}, batch item ${item.index}` : `line ${item.line}`;
}

/**
 * The error of an input whose failed lines fail it whole (POST /convert; POST /ingest when no line is a message): 400,
 * with the code, title and line of the first failed line, and the first `listed` failed lines in `errors`.
 */
export function failedInputError(failed: readonly FailedItem[], detail: string, listed = failed.length): McpLdError {
  const first = failed[0]!;
  return new McpLdError({
    code: first.error.code,
    status: 400,
    title: first.error.title,
    detail,
    line: first.line,
    extensions: { errors: failed.slice(0, listed).map(listedFailure) },
  });
}

/** A failed item as the API lists it (POST /convert's and POST /ingest's `errors`). */
export function listedFailure(failed: FailedItem): { line: number; index?: number; title: string; detail: string } {
  return {
    line: failed.line,
    ...(failed.index !== undefined ? { index: failed.index } : {}),
    title: failed.error.title,
    detail: failed.error.detail,
  };
}

export function summaryLine(summary: ConversionSummary): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const raw = summary.rawLines > 0 ? ` and ${plural(summary.rawLines, 'raw line')}` : '';
  const counts = `${plural(summary.messages, 'message')}${raw} in ${plural(summary.sessions, 'session')} → ${plural(summary.quads, 'quad')}; ${summary.invalid} invalid, ${plural(summary.unknownMethods, 'unknown method')}, ${plural(summary.failed.length, 'failed line')}`;
  const versions = Object.entries(summary.versions)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([version, n]) => `${version} (${n})`);
  const unknown = Object.entries(summary.unknownVersions).map(
    ([declared, version]) => `${declared} is not a version mcp-ld knows: lifted by ${version}`,
  );
  return [counts, ...(versions.length > 0 ? [`protocol ${versions.join(', ')}`] : []), ...unknown].join('; ');
}

interface ConvertTextOptions {
  strict?: boolean;
  /** Lift bodies with jsonld.js and the generated contexts instead of the compiled engine. */
  engine?: 'fast' | 'reference';
}

/** Lifts a whole input text (message, batch, JSONL) to quads, with the tally of what happened. */
export async function convertText(
  lifter: Lifter,
  text: string | Uint8Array,
  options: ConvertTextOptions = {},
): Promise<{ quads: Quad[]; summary: ConversionSummary }> {
  const conversion = new Conversion(options.strict ? { strict: true } : {});
  const reference =
    options.engine === 'reference' ? new (await import('./reference.js')).ReferenceEngine(lifter) : undefined;
  const quads: Quad[] = [];
  await conversion.run(parseInput(text), {
    lift: (record) => (reference ? reference.lift(record) : lifter.lift(record)),
    take: (lifted) => {
      for (const q of lifted.quads) quads.push(q);
    },
  });
  return { quads, summary: conversion.summary };
}
