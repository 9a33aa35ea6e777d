// Cuts a store's answer text into chunks of whole rows, for an answer handed over a piece at a time: SPARQL 1.1 JSON
// results (SELECT) into JSON arrays of bindings, N-Triples (CONSTRUCT, DESCRIBE, a graph) into whole lines, a bounded
// CONSTRUCT's marker triples dropped from each. The text is scanned once, a chunk at a time, as the chunks are asked
// for. Pure: text in, text out.
import type { QueryForm } from './quad-store.js';
import { jsonStringEnd, withoutSolutionMarkers } from './result-limits.js';
import { storeFailed } from './store-errors.js';

/** What a chunked answer is: its form, and a SELECT's variables. */
interface ChunkedHead {
  form: Exclude<QueryForm, 'ASK'>;
  variables: string[];
}

/**
 * An answer as the worker opens it: its head with its first chunk (as UTF-8; none when it has no rows), and whether
 * more chunks follow (only then does the worker keep it under its cursor). A small answer, most of them, is whole in
 * one message.
 */
export interface OpenedAnswer extends ChunkedHead {
  first?: Uint8Array;
  more: boolean;
}

export class ResultChunker {
  readonly head: ChunkedHead;
  private position: number;
  private readonly end: number;

  /** `markers`: the text holds a bounded CONSTRUCT's marker triples (result-limits.ts), which no chunk keeps. */
  constructor(
    form: Exclude<QueryForm, 'ASK'>,
    private readonly text: string,
    private readonly markers = false,
  ) {
    if (form !== 'SELECT') {
      this.head = { form, variables: [] };
      this.position = 0;
      this.end = text.length;
      return;
    }
    // `{"head":{"vars":[…]},"results":{"bindings":[` … `]}}`: the head read alone, the rows between the brackets.
    const key = text.indexOf('"bindings"');
    const open = key < 0 ? -1 : text.indexOf('[', key);
    const close = text.lastIndexOf(']');
    if (open < 0 || close < open) throw storeFailed('the store answered a SELECT query without results');
    const variables = (JSON.parse(`${text.slice(0, open)}[]}}`) as { head?: { vars?: string[] } }).head?.vars ?? [];
    this.head = { form, variables };
    this.position = open + 1;
    this.end = close;
  }

  /** Whether every row has been handed out. */
  get done(): boolean {
    return this.position >= this.end;
  }

  /**
   * The next rows, about `maxChars` of text (one row at least, however long): a SELECT's as a JSON array of bindings
   * objects, a graph's as N-Triples lines; undefined after the last.
   */
  next(maxChars: number): string | undefined {
    if (this.head.form !== 'SELECT') {
      // Lines that were all markers are no chunk: on to the next lines (an empty chunk would end the answer).
      while (!this.done) {
        const start = this.position;
        const newline = this.text.indexOf('\n', Math.min(start + Math.max(1, maxChars) - 1, this.end - 1));
        this.position = newline < 0 || newline >= this.end ? this.end : newline + 1;
        const lines = this.text.slice(start, this.position);
        const kept = this.markers ? withoutSolutionMarkers(lines) : lines;
        if (kept.length > 0) return kept;
      }
      return undefined;
    }
    if (this.done) return undefined;
    const start = this.position;
    const cut = this.rowsEnd(start, maxChars);
    // Past the comma after the last row of the chunk (or at the end of the array).
    let next = cut;
    while (next < this.end && this.text.charCodeAt(next) !== 0x2c) next++;
    this.position = Math.min(this.end, next + 1);
    const rows = this.text.slice(start, cut).replace(/^\s+/, '');
    return `[${rows}]`;
  }

  /**
   * Where the rows from `start` (a row boundary) stop: after the first row that ends `maxChars` or more past it, or at
   * the end of the array. A scan that skips strings and counts brackets.
   */
  private rowsEnd(start: number, maxChars: number): number {
    const text = this.text;
    const want = start + maxChars;
    let depth = 0;
    for (let i = start; i < this.end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i = jsonStringEnd(text, i, this.end);
      } else if (c === 0x7b || c === 0x5b) {
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0 && i + 1 >= want) return i + 1;
      }
    }
    return this.end;
  }
}
