// The bounds a SPARQL text must keep before a parser sees it: its size in bytes, and how deeply its braces,
// parentheses and brackets nest (sparqljs slows down super-linearly with nesting, and Oxigraph overflows its stack
// past a few hundred levels). One linear scan, outside comments, strings and IRIs. Pure: no store, no I/O.
import { McpLdError } from '../core/problem.js';
import type { ParseOptions, SparqlKind } from './parse-query.js';

export interface SparqlLimits {
  /** Largest text, in bytes of UTF-8 (MCPLD_MAX_QUERY_BYTES). */
  maxBytes: number;
  /** Deepest nesting of `{`, `(` and `[` together (MCPLD_MAX_QUERY_DEPTH). */
  maxDepth: number;
}

export const defaultSparqlLimits: SparqlLimits = { maxBytes: 1024 * 1024, maxDepth: 64 };

/** Throws `<kind>.too-large` (413) or `<kind>.too-deep` (400, with the line and column where it gets too deep). */
export function checkSparqlLimits(
  text: string,
  limits: SparqlLimits,
  options: ParseOptions = {},
  kind: SparqlKind = 'query',
): void {
  const source = options.source ? `${options.source}: ` : '';
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a text that might be too large is measured.
  if (text.length * 3 > limits.maxBytes && Buffer.byteLength(text, 'utf8') > limits.maxBytes) {
    throw McpLdError.of(`${kind}.too-large`, {
      detail: `${source}the ${kind} is ${Buffer.byteLength(text, 'utf8')} bytes, more than the limit of ${limits.maxBytes} (MCPLD_MAX_QUERY_BYTES)${kind === 'update' ? '; send traffic to POST /ingest instead' : ''}`,
    });
  }
  const offset = tooDeepAt(text, limits.maxDepth);
  if (offset < 0) return;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  throw McpLdError.of(`${kind}.too-deep`, {
    detail: `${source}line ${line}, column ${column}: '${text[offset]}' opens level ${limits.maxDepth + 1} of nested braces, parentheses and brackets; the limit is ${limits.maxDepth} (MCPLD_MAX_QUERY_DEPTH)`,
    line,
  });
}

/** Offset of the `{`, `(` or `[` that opens one level more than `maxDepth`, or -1. */
export function tooDeepAt(text: string, maxDepth: number): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (c === '{' || c === '(' || c === '[') {
      if (++depth > maxDepth) return i;
    } else if (c === '}' || c === ')' || c === ']') {
      if (depth > 0) depth--;
    } else if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === '"' || c === "'") {
      i = endOfString(text, i) - 1;
    } else if (c === '<') {
      const end = endOfIri(text, i);
      if (end > 0) i = end - 1;
    }
  }
  return -1;
}

/** Offset just past the string literal that starts at `start` (short or long, with escapes), or the end of the text. */
function endOfString(text: string, start: number): number {
  const c = text[start]!;
  const long = text.startsWith(c.repeat(3), start);
  const quote = long ? c.repeat(3) : c;
  let i = start + quote.length;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text.startsWith(quote, i)) return i + quote.length;
    else if (!long && (text[i] === '\n' || text[i] === '\r')) return i;
    else i++;
  }
  return text.length;
}

/** Offset just past the IRI `<…>` that starts at `start`, or -1 when `<` starts none (a comparison). */
function endOfIri(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3e) return i + 1; // >
    // Characters an IRIREF cannot hold: <, ", {, }, |, ^, `, \ and controls and space.
    if (
      c <= 0x20 ||
      c === 0x3c ||
      c === 0x22 ||
      c === 0x7b ||
      c === 0x7d ||
      c === 0x7c ||
      c === 0x5e ||
      c === 0x60 ||
      c === 0x5c
    )
      return -1;
  }
  return -1;
}

/**
 * `<kind>.too-complex` (400): a text within the limits above whose syntax tree is still too deep to walk — a chain of
 * thousands of operators (`1 + 1 + …`) nests as deeply as thousands of parentheses.
 */
export function tooComplex(options: ParseOptions = {}, kind: SparqlKind = 'query'): McpLdError {
  return McpLdError.of(`${kind}.too-complex`, {
    detail: `${options.source ? `${options.source}: ` : ''}the ${kind} chains or nests too many operators, patterns or paths to be checked (the parser ran out of stack); split it into smaller ${kind === 'query' ? 'queries' : 'updates'}`,
  });
}
