// A direct N-Quads serializer for RDF-JS quads (W3C N-Quads: IRIREF and STRING_LITERAL_QUOTE escapes), used on
// the hot path of conversion where building one big string through a general writer costs more than lifting.
import type { Quad, Term } from '@rdfjs/types';
import { xsd } from './vocabulary.js';
import { iriRef } from '../core/iri.js';

const literalUnsafe = /["\\\n\r]/;

/**
 * A literal's lexical form as the inside of an N-Quads STRING_LITERAL_QUOTE. Plain string replacements, backslash
 * first: every rdf:JSON literal has quotes, and a replace with a callback per character costs twice as much.
 */
export function escapeLiteralValue(value: string): string {
  if (!literalUnsafe.test(value)) return value;
  let escaped = value;
  if (escaped.includes('\\')) escaped = escaped.replaceAll('\\', '\\\\');
  if (escaped.includes('"')) escaped = escaped.replaceAll('"', '\\"');
  if (escaped.includes('\n')) escaped = escaped.replaceAll('\n', '\\n');
  if (escaped.includes('\r')) escaped = escaped.replaceAll('\r', '\\r');
  return escaped;
}

function literal(term: Term & { termType: 'Literal' }): string {
  const value = escapeLiteralValue(term.value);
  if (term.language) return `"${value}"@${term.language}`;
  return term.datatype.value === xsd.string ? `"${value}"` : `"${value}"^^${iriRef(term.datatype.value)}`;
}

export function termToNQuads(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return iriRef(term.value);
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal':
      return literal(term);
    default:
      throw new Error(`cannot write a ${term.termType} in N-Quads`);
  }
}

export function quadToNQuads(q: Quad): string {
  const graph = q.graph.termType === 'DefaultGraph' ? '' : ` ${termToNQuads(q.graph)}`;
  return `${termToNQuads(q.subject)} ${termToNQuads(q.predicate)} ${termToNQuads(q.object)}${graph} .\n`;
}

export function quadsToNQuads(quads: Iterable<Quad>): string {
  let out = '';
  for (const q of quads) out += quadToNQuads(q);
  return out;
}
