// Checks a batch of N-Quads text before any store sees it: W3C N-Quads syntax, line by line, with absolute IRIs and
// a named (IRI) graph on every statement, so that a store only ever loads what it will accept in full. It also
// counts the statements, names the graphs and can split the batch into N-Triples per graph (for remote stores).
import { isUtf8 } from 'node:buffer';
import { McpLdError } from '../core/problem.js';

const iriChar = '[^\\x00-\\x20<>"{}|^`\\\\]';
const uchar = '\\\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})';
/** An absolute IRI reference: a scheme, then IRI characters or \u escapes (unrolled: linear on failure). */
const iri = `<[A-Za-z][A-Za-z0-9+.\\-]*:${iriChar}*(?:${uchar}${iriChar}*)*>`;
const pnCharsU = 'A-Za-z_\\u00C0-\\uFFFF';
const blank = `_:[${pnCharsU}0-9](?:[${pnCharsU}0-9\\-.\\u00B7]*[${pnCharsU}0-9\\-\\u00B7])?`;
const stringChar = '[^"\\\\\\n\\r]';
const echar = `\\\\(?:[tbnrf"'\\\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})`;
const literal = `"${stringChar}*(?:${echar}${stringChar}*)*"(?:\\^\\^${iri}|@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)?`;
const ws = '[ \\t]*';
const triple = `(?:${iri}|${blank})${ws}${iri}${ws}(?:${iri}|${literal}|${blank})`;

/** A statement with its triple part (group 1) and its graph IRI (group 2). */
const statement = new RegExp(`^${ws}(${triple})${ws}(${iri})${ws}\\.${ws}(?:#.*)?\\r?$`);
/** A triple without a graph: valid N-Quads, but a default-graph quad, which the stores refuse. */
const defaultGraphStatement = new RegExp(`^${ws}${triple}${ws}\\.${ws}(?:#.*)?\\r?$`);
const blankGraphStatement = new RegExp(`^${ws}${triple}${ws}${blank}${ws}\\.${ws}(?:#.*)?\\r?$`);
const emptyLine = /^[ \t]*(?:#.*)?\r?$/;

export interface CheckedBatch {
  /** Statements in the batch. */
  quads: number;
  /** The graphs the statements are in, in order of first appearance. */
  graphs: string[];
}

interface SplitBatch extends CheckedBatch {
  /** N-Triples lines per graph, in order. */
  triples: Map<string, string[]>;
}

function invalid(line: number, detail: string): McpLdError {
  return McpLdError.of('store.invalid-nquads', { detail: `line ${line}: ${detail}`, line });
}

function explain(text: string): string {
  if (defaultGraphStatement.test(text))
    return 'a triple without a graph name: the store keeps quads in session graphs only, not in the default graph';
  if (blankGraphStatement.test(text)) return 'a blank node as graph name: session graphs are named by IRIs';
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return `not an N-Quads statement with absolute IRIs: ${JSON.stringify(shown)}`;
}

/** The value of an IRI reference as written in N-Quads (between the angle brackets, \u escapes resolved). */
function iriValue(iriRef: string): string {
  const inner = iriRef.slice(1, -1);
  if (!inner.includes('\\')) return inner;
  return inner.replace(
    /\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/g,
    (_, u4: string | undefined, u8: string | undefined) => String.fromCodePoint(parseInt(u4 ?? u8!, 16)),
  );
}

function scan(nquads: string, onStatement: (graphRef: string, tripleText: string) => void): number {
  let quads = 0;
  let line = 0;
  let start = 0;
  const length = nquads.length;
  while (start < length) {
    let end = nquads.indexOf('\n', start);
    if (end < 0) end = length;
    line += 1;
    const text = nquads.slice(start, end);
    start = end + 1;
    const match = statement.exec(text);
    if (match) {
      quads += 1;
      onStatement(match[2]!, match[1]!);
    } else if (!emptyLine.test(text)) {
      throw invalid(line, explain(text));
    }
  }
  return quads;
}

/** Checks a batch; throws McpLdError `store.invalid-nquads` (400) naming the first bad line. */
export function checkNQuads(nquads: string): CheckedBatch {
  const seen = new Set<string>();
  let last = '';
  const quads = scan(nquads, (graphRef) => {
    if (graphRef !== last) {
      seen.add(graphRef);
      last = graphRef;
    }
  });
  return { quads, graphs: [...seen].map(iriValue) };
}

/** Checks a batch and splits it into N-Triples lines per graph (graph IRIs as values, not references). */
export function splitNQuads(nquads: string): SplitBatch {
  const byRef = new Map<string, string[]>();
  let lastRef = '';
  let lastLines: string[] = [];
  const quads = scan(nquads, (graphRef, tripleText) => {
    if (graphRef !== lastRef) {
      let lines = byRef.get(graphRef);
      if (!lines) byRef.set(graphRef, (lines = []));
      lastRef = graphRef;
      lastLines = lines;
    }
    lastLines.push(`${tripleText} .`);
  });
  const triples = new Map<string, string[]>();
  for (const [ref, lines] of byRef) {
    const graph = iriValue(ref);
    const existing = triples.get(graph);
    if (existing) existing.push(...lines);
    else triples.set(graph, lines);
  }
  return { quads, graphs: [...triples.keys()], triples };
}

// The same check on UTF-8 bytes, without decoding them: what the ingest path uses (lifted text goes to the store as
// bytes, written once). A hand-written scanner, one pass, no allocation but for each new graph name.
const LT = 0x3c,
  GT = 0x3e,
  QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COLON = 0x3a,
  UNDERSCORE = 0x5f,
  DOT = 0x2e,
  HASH = 0x23;
const SPACE = 0x20,
  TAB = 0x09,
  LF = 0x0a,
  CR = 0x0d,
  CARET = 0x5e,
  AT = 0x40,
  DASH = 0x2d;

/** Bytes that may not appear in an IRIREF (besides escapes): controls, space, <>"{}|^`\ . */
const iriForbidden = new Uint8Array(256);
for (let b = 0; b <= 0x20; b++) iriForbidden[b] = 1;
for (const c of '<>"{}|^`\\') iriForbidden[c.charCodeAt(0)] = 1;

function isAlpha(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isHex(b: number): boolean {
  return isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** Scans `\uXXXX` or `\UXXXXXXXX` at i (on the backslash); the position after it, or -1. */
function uEscape(data: Uint8Array, i: number, end: number): number {
  const kind = data[i + 1];
  const digits = kind === 0x75 ? 4 : kind === 0x55 ? 8 : 0;
  if (digits === 0 || i + 2 + digits > end) return -1;
  for (let k = i + 2; k < i + 2 + digits; k++) if (!isHex(data[k]!)) return -1;
  return i + 2 + digits;
}

/** An absolute IRIREF at i (on '<'); the position after '>', or -1. */
function scanIri(data: Uint8Array, i: number, end: number): number {
  if (data[i] !== LT) return -1;
  i++;
  if (i >= end || !isAlpha(data[i]!)) return -1;
  i++;
  for (;;) {
    if (i >= end) return -1;
    const b = data[i]!;
    if (b === COLON) break;
    if (!(isAlpha(b) || isDigit(b) || b === 0x2b || b === DOT || b === DASH)) return -1;
    i++;
  }
  i++;
  for (;;) {
    if (i >= end) return -1;
    const b = data[i]!;
    if (b === GT) return i + 1;
    if (b === BACKSLASH) {
      i = uEscape(data, i, end);
      if (i < 0) return -1;
    } else if (iriForbidden[b]) {
      return -1;
    } else {
      i++;
    }
  }
}

function isLabelByte(b: number): boolean {
  return isAlpha(b) || isDigit(b) || b === UNDERSCORE || b === DASH || b === DOT || b >= 0x80;
}

/** A blank node label at i (on '_'); the position after it, or -1. */
function scanBlank(data: Uint8Array, i: number, end: number): number {
  if (data[i] !== UNDERSCORE || data[i + 1] !== COLON) return -1;
  i += 2;
  const first = data[i];
  if (first === undefined || i >= end || !(isAlpha(first) || isDigit(first) || first === UNDERSCORE || first >= 0x80))
    return -1;
  i++;
  while (i < end && isLabelByte(data[i]!)) i++;
  while (data[i - 1] === DOT) i--; // a label does not end with '.'
  return i;
}

/** A literal at i (on '"'), with its language tag or datatype; the position after it, or -1. */
function scanLiteral(data: Uint8Array, i: number, end: number): number {
  i++;
  for (;;) {
    if (i >= end) return -1;
    const b = data[i]!;
    if (b === QUOTE) break;
    if (b === LF || b === CR) return -1;
    if (b === BACKSLASH) {
      const next = data[i + 1];
      if (
        next === 0x74 ||
        next === 0x62 ||
        next === 0x6e ||
        next === 0x72 ||
        next === 0x66 ||
        next === QUOTE ||
        next === 0x27 ||
        next === BACKSLASH
      )
        i += 2;
      else if ((i = uEscape(data, i, end)) < 0) return -1;
    } else {
      i++;
    }
  }
  i++;
  if (data[i] === CARET) {
    if (data[i + 1] !== CARET) return -1;
    return scanIri(data, i + 2, end);
  }
  if (data[i] === AT) {
    i++;
    const start = i;
    while (i < end && isAlpha(data[i]!)) i++;
    if (i === start) return -1;
    while (data[i] === DASH) {
      const part = ++i;
      while (i < end && (isAlpha(data[i]!) || isDigit(data[i]!))) i++;
      if (i === part) return -1;
    }
  }
  return i;
}

function skipSpace(data: Uint8Array, i: number, end: number): number {
  while (i < end && (data[i] === SPACE || data[i] === TAB)) i++;
  return i;
}

/**
 * One line [start, end) without its LF: 1 for a statement (graph range in `graph`), 0 for a blank or comment line, -1
 * if bad.
 */
function scanLine(data: Uint8Array, start: number, end: number, graph: { start: number; end: number }): number {
  if (end > start && data[end - 1] === CR) end--;
  let i = skipSpace(data, start, end);
  if (i === end) return 0;
  if (data[i] === HASH) {
    for (let k = i; k < end; k++) if (data[k] === CR) return -1;
    return 0;
  }
  i = data[i] === LT ? scanIri(data, i, end) : scanBlank(data, i, end);
  if (i < 0) return -1;
  i = scanIri(data, skipSpace(data, i, end), end);
  if (i < 0) return -1;
  i = skipSpace(data, i, end);
  const o = data[i];
  i =
    o === LT
      ? scanIri(data, i, end)
      : o === QUOTE
        ? scanLiteral(data, i, end)
        : o === UNDERSCORE
          ? scanBlank(data, i, end)
          : -1;
  if (i < 0) return -1;
  i = skipSpace(data, i, end);
  graph.start = i;
  i = scanIri(data, i, end);
  if (i < 0) return -1;
  graph.end = i;
  i = skipSpace(data, i, end);
  if (data[i] !== DOT || i >= end) return -1;
  i = skipSpace(data, i + 1, end);
  if (i === end) return 1;
  if (data[i] !== HASH) return -1;
  // A comment runs to the end of the line; a lone CR in it would end the line (and start a bad one).
  for (let k = i; k < end; k++) if (data[k] === CR) return -1;
  return 1;
}

const utf8 = new TextDecoder();

/** Refuses (store.invalid-nquads, 400) a batch whose bytes are not UTF-8: both stores check this first. */
export function checkBatchUtf8(data: Uint8Array): void {
  if (!isUtf8(data)) throw McpLdError.of('store.invalid-nquads', { detail: 'the batch is not valid UTF-8' });
}

/** A batch's bytes checked: valid UTF-8 first, then N-Quads (checkNQuadsBytes). */
export function checkBatchBytes(data: Uint8Array): CheckedBatch {
  checkBatchUtf8(data);
  return checkNQuadsBytes(data);
}

/** Checks a batch given as UTF-8 bytes; throws McpLdError `store.invalid-nquads` (400) naming the first bad line. */
function checkNQuadsBytes(data: Uint8Array): CheckedBatch {
  const graphs: string[] = [];
  const seen = new Set<string>();
  const graph = { start: 0, end: 0 };
  let lastStart = -1;
  let lastEnd = -1;
  let quads = 0;
  let line = 0;
  const length = data.length;
  for (let start = 0; start < length;) {
    let end = data.indexOf(LF, start);
    if (end < 0) end = length;
    line++;
    const kind = scanLine(data, start, end, graph);
    if (kind < 0) throw invalid(line, explain(utf8.decode(data.subarray(start, end))));
    if (kind > 0) {
      quads++;
      // Consecutive statements are mostly in one graph: compare its bytes before decoding a name.
      let same = graph.end - graph.start === lastEnd - lastStart;
      for (let k = 0; same && k < graph.end - graph.start; k++) same = data[graph.start + k] === data[lastStart + k];
      if (!same) {
        const name = iriValue(utf8.decode(data.subarray(graph.start, graph.end)));
        if (!seen.has(name)) {
          seen.add(name);
          graphs.push(name);
        }
        lastStart = graph.start;
        lastEnd = graph.end;
      }
    }
    start = end + 1;
  }
  return { quads, graphs };
}
