// Which sessions (graph names) the bytes of a journal or snapshot frame name, for messages about damaged or torn
// writes:
// the graph of every whole N-Quads statement, a dropped graph, the GRAPH clauses of an update. Best effort on bytes
// that may be cut or damaged: only what reads as an absolute IRI counts. Never used to replay anything.
import type { FrameType } from './frames.js';
import { isAbsoluteIri } from '../core/iri.js';

const newline = 0x0a;
const lt = 0x3c;
const gt = 0x3e;
const dot = 0x2e;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0d;

/**
 * Adds to `into` the graph of every statement of `bytes` that ends in `<graph> .` (a cut last line counts when it
 * does).
 */
export function addNQuadsGraphs(bytes: Uint8Array, into: Set<string>): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let previous: Buffer | undefined;
  for (let start = 0; start < buffer.length;) {
    let end = buffer.indexOf(newline, start);
    if (end < 0) end = buffer.length;
    let at = end - 1;
    while (at > start && isSpace(buffer[at]!)) at--;
    if (buffer[at] === dot) {
      at--;
      while (at > start && isSpace(buffer[at]!)) at--;
      if (buffer[at] === gt) {
        const open = buffer.lastIndexOf(lt, at);
        if (open >= start) {
          const iri = buffer.subarray(open + 1, at);
          // Consecutive statements mostly share their graph: decode it once.
          if (!previous || !previous.equals(iri)) {
            previous = iri;
            const text = iri.toString('utf8');
            if (isAbsoluteIri(text)) into.add(text);
          }
        }
      }
    }
    start = end + 1;
  }
}

/** The graphs `GRAPH <…>` names in a SPARQL Update (a `GRAPH ?g` names none). */
function addUpdateGraphs(text: string, into: Set<string>): void {
  for (const match of text.matchAll(/\bGRAPH\s*<([^>\s]*)>/gi)) if (isAbsoluteIri(match[1]!)) into.add(match[1]!);
}

/** Adds the graphs a frame's payload (or the part of it that was read) names. */
export function addFrameGraphs(type: FrameType, payload: Uint8Array, into: Set<string>): void {
  if (type === 'quads') addNQuadsGraphs(payload, into);
  else if (type === 'update')
    addUpdateGraphs(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8'), into);
  else if (type === 'drop') {
    const graph = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8');
    if (isAbsoluteIri(graph)) into.add(graph);
  }
}

/** "urn:…/a, urn:…/b and 3 more" (sorted), or `none` when there are none. */
export function listSessions(graphs: Iterable<string>, none = 'no session', max = 10): string {
  const sorted = [...graphs].sort();
  if (sorted.length === 0) return none;
  const shown = sorted.slice(0, max).join(', ');
  return sorted.length > max ? `${shown} and ${sorted.length - max} more` : shown;
}
