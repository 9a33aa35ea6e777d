// Reads query results as the stores send them — SPARQL 1.1 JSON results for SELECT and ASK, N-Triples (or Turtle)
// for CONSTRUCT and DESCRIBE — into the QueryResult of quad-store.ts, with RDF/JS terms from n3's DataFactory.
import { DataFactory, Parser } from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import type { QueryForm, QueryResult } from './quad-store.js';
import { storeFailed } from './store-errors.js';

const { namedNode, blankNode, literal, quad, defaultGraph } = DataFactory;

export interface JsonTerm {
  type: string;
  value: string | { subject: JsonTerm; predicate: JsonTerm; object: JsonTerm };
  datatype?: string;
  'xml:lang'?: string;
}

export interface SparqlJson {
  head?: { vars?: string[] };
  boolean?: boolean;
  results?: { bindings: Record<string, JsonTerm>[] };
}

/** Rewrites a literal's lexical form as it is read (a remote store's normalisations); identity by default. */
export type LiteralFix = (value: string, datatype: string | undefined) => string;

export function jsonTerm(term: JsonTerm, fix?: LiteralFix): Term {
  switch (term.type) {
    case 'uri':
      return namedNode(term.value as string);
    case 'bnode':
      return blankNode(term.value as string);
    case 'literal':
    case 'typed-literal': {
      const value = fix ? fix(term.value as string, term.datatype) : (term.value as string);
      if (term['xml:lang']) return literal(value, term['xml:lang']);
      return term.datatype ? literal(value, namedNode(term.datatype)) : literal(value);
    }
    case 'triple': {
      const t = term.value as { subject: JsonTerm; predicate: JsonTerm; object: JsonTerm };
      return quad(jsonTerm(t.subject, fix) as Quad['subject'], jsonTerm(t.predicate, fix) as Quad['predicate'], jsonTerm(t.object, fix) as Quad['object']);
    }
    default:
      throw storeFailed(`the store answered with an unknown term type "${term.type}"`);
  }
}

/** SELECT or ASK results from SPARQL 1.1 JSON results. */
export function fromSparqlJson(form: 'SELECT' | 'ASK', json: SparqlJson, fix?: LiteralFix): QueryResult {
  if (form === 'ASK') {
    if (typeof json.boolean !== 'boolean') throw storeFailed('the store answered an ASK query without a boolean');
    return { form, boolean: json.boolean };
  }
  if (!json.results || !Array.isArray(json.results.bindings)) throw storeFailed('the store answered a SELECT query without results');
  const rows = json.results.bindings.map((binding) => {
    const row = new Map<string, Term>();
    for (const [name, term] of Object.entries(binding)) row.set(name, jsonTerm(term, fix));
    return row;
  });
  return { form, variables: json.head?.vars ?? [], rows };
}

/** Triples (N-Triples or Turtle text) as quads, in `graph` or in the default graph. */
export function parseTriples(text: string, graph?: string, format: 'N-Triples' | 'Turtle' = 'N-Triples'): Quad[] {
  const target = graph === undefined ? defaultGraph() : namedNode(graph);
  const triples = new Parser({ format }).parse(text);
  if (graph === undefined) return triples as Quad[];
  return triples.map((t) => quad(t.subject, t.predicate, t.object, target) as Quad);
}

export function fromGraphText(form: Exclude<QueryForm, 'SELECT' | 'ASK'>, text: string, format: 'N-Triples' | 'Turtle' = 'N-Triples'): QueryResult {
  return { form, quads: parseTriples(text, undefined, format) };
}
