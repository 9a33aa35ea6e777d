// The bounds of a query's answer, which a store enforces on the text of its results before anything parses them: at
// most maxRows rows (SELECT), solutions (CONSTRUCT: one marker triple each, put in its template by
// query/bound-rows.ts, counted and dropped here) or triples (DESCRIBE), and at most maxBytes of results. Pure
// functions.
import type { Quad } from '@rdfjs/types';
import type { QueryForm } from './quad-store.js';

/** The predicate of the marker triple that a bounded CONSTRUCT gives once per solution. */
export const solutionMarker = 'urn:mcp-ld:solution';

export interface ResultLimits {
  maxRows?: number;
  maxBytes?: number;
}

/** Which bound an answer went past. */
export interface LimitExceeded {
  exceeded: 'rows' | 'bytes';
  form: QueryForm;
  limit: number;
}

/** A marker triple in N-Triples, as Oxigraph writes it: a blank node, the marker, "1". */
const markerLine = new RegExp(`^_:\\S+ <${solutionMarker}> "1" \\.\\n?`, 'gm');

/**
 * Results as text (SPARQL JSON for SELECT and ASK, N-Triples for CONSTRUCT and DESCRIBE) checked against `limits`:
 * the text to answer (CONSTRUCT: without its marker triples), or the bound it went past.
 */
export function limitResultText(form: QueryForm, text: string, limits: ResultLimits): { text: string } | LimitExceeded {
  const { maxRows, maxBytes } = limits;
  if (maxRows !== undefined) {
    if (form === 'SELECT' && moreBindingsThan(text, maxRows)) return { exceeded: 'rows', form, limit: maxRows };
    if (form === 'CONSTRUCT' && text.includes(solutionMarker)) {
      let solutions = 0;
      text = text.replace(markerLine, () => {
        solutions += 1;
        return '';
      });
      if (solutions > maxRows) return { exceeded: 'rows', form, limit: maxRows };
    }
    if (form === 'DESCRIBE' && moreLinesThan(text, maxRows)) return { exceeded: 'rows', form, limit: maxRows };
  }
  if (maxBytes !== undefined && text.length > maxBytes / 3 && Buffer.byteLength(text, 'utf8') > maxBytes)
    return { exceeded: 'bytes', form, limit: maxBytes };
  return { text };
}

/** The quads of a bounded CONSTRUCT without its marker triples, and how many solutions those counted. */
export function dropSolutionMarkers(quads: Quad[]): { quads: Quad[]; solutions: number } {
  const kept = quads.filter((q) => q.predicate.value !== solutionMarker);
  return { quads: kept, solutions: quads.length - kept.length };
}

/**
 * Whether SPARQL 1.1 JSON results hold more than `rows` rows: the objects directly in the `bindings` array, counted by
 * a scan that skips strings and stops at `rows` + 1. A text too short to hold that many (each row takes at least `{}`
 * and a comma) is not scanned.
 */
export function moreBindingsThan(json: string, rows: number): boolean {
  const start = json.indexOf('"bindings"');
  if (start < 0 || json.length - start < 3 * rows) return false;
  let i = json.indexOf('[', start);
  if (i < 0) return false;
  let depth = 0;
  let seen = 0;
  for (i += 1; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // A string: on to its closing quote, over escapes.
      for (i += 1; i < json.length && json.charCodeAt(i) !== 0x22; i++) if (json.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === 0 && c === 0x7b && ++seen > rows) return true;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return false; // the end of the bindings array
      depth--;
    }
  }
  return false;
}

/** Whether N-Triples text (one triple a line) holds more than `triples` lines. */
function moreLinesThan(text: string, triples: number): boolean {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (++lines > triples) return true;
  return false;
}
