// Reads query results as the stores send them — SPARQL 1.1 JSON results for SELECT and ASK, N-Triples (or Turtle)
// for CONSTRUCT and DESCRIBE — into the QueryResult of quad-store.ts, with RDF/JS terms from n3's DataFactory; and
// writes SPARQL 1.1 JSON results from a QueryResult (the API's answer, and a store's QueryText).
import { DataFactory, Parser } from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import type { QueryForm, QueryResult, QueryText } from './quad-store.js';
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

function jsonTerm(term: JsonTerm, fix?: LiteralFix): Term {
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
      return quad(
        jsonTerm(t.subject, fix) as Quad['subject'],
        jsonTerm(t.predicate, fix) as Quad['predicate'],
        jsonTerm(t.object, fix) as Quad['object'],
      );
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
  if (!json.results || !Array.isArray(json.results.bindings))
    throw storeFailed('the store answered a SELECT query without results');
  const rows = json.results.bindings.map((binding) => {
    const row = new Map<string, Term>();
    for (const [name, term] of Object.entries(binding)) row.set(name, jsonTerm(term, fix));
    return row;
  });
  return { form, variables: json.head?.vars ?? [], rows };
}

/**
 * Triples (N-Triples or Turtle text) as quads, in `graph` or in the default graph. Blank nodes get labels of their own
 * (`blankNodePrefix`, else one n3 picks per parse): the chunks of one answer, parsed apart, are given one prefix.
 */
export function parseTriples(
  text: string,
  graph?: string,
  format: 'N-Triples' | 'Turtle' = 'N-Triples',
  blankNodePrefix?: string,
): Quad[] {
  const target = graph === undefined ? defaultGraph() : namedNode(graph);
  const triples = new Parser({ format, ...(blankNodePrefix ? { blankNodePrefix } : {}) }).parse(text);
  if (graph === undefined) return triples as Quad[];
  return triples.map((t) => quad(t.subject, t.predicate, t.object, target) as Quad);
}

export function fromGraphText(
  form: Exclude<QueryForm, 'SELECT' | 'ASK'>,
  text: string,
  format: 'N-Triples' | 'Turtle' = 'N-Triples',
): QueryResult {
  return { form, quads: parseTriples(text, undefined, format) };
}

/** A QueryText (SPARQL 1.1 JSON results or N-Triples) as the QueryResult it holds. */
export function readQueryText({ form, data }: QueryText): QueryResult {
  const text = new TextDecoder().decode(data);
  if (form === 'SELECT' || form === 'ASK') return fromSparqlJson(form, JSON.parse(text) as SparqlJson);
  return fromGraphText(form, text);
}

// ---- writing SPARQL 1.1 JSON results ------------------------------------------------------------------------

const xsdString = 'http://www.w3.org/2001/XMLSchema#string';

export type ResultTermJson =
  | { type: 'uri' | 'bnode'; value: string }
  | { type: 'literal'; value: string; datatype?: string; 'xml:lang'?: string }
  | { type: 'triple'; value: { subject: ResultTermJson; predicate: ResultTermJson; object: ResultTermJson } };

export type ResultsJson =
  | { head: { vars: string[] }; results: { bindings: Record<string, ResultTermJson>[] } }
  | { head: Record<string, never>; boolean: boolean };

export function termJson(term: Term): ResultTermJson {
  switch (term.termType) {
    case 'NamedNode':
      return { type: 'uri', value: term.value };
    case 'BlankNode':
      return { type: 'bnode', value: term.value };
    case 'Literal':
      if (term.language) return { type: 'literal', value: term.value, 'xml:lang': term.language };
      if (term.datatype.value === xsdString) return { type: 'literal', value: term.value };
      return { type: 'literal', value: term.value, datatype: term.datatype.value };
    case 'Quad':
      return {
        type: 'triple',
        value: { subject: termJson(term.subject), predicate: termJson(term.predicate), object: termJson(term.object) },
      };
    default:
      throw new Error(`a ${term.termType} cannot be a query result`);
  }
}

export function resultsJson(result: Extract<QueryResult, { form: 'SELECT' | 'ASK' }>): ResultsJson {
  if (result.form === 'ASK') return { head: {}, boolean: result.boolean };
  return {
    head: { vars: result.variables },
    results: {
      bindings: result.rows.map((row) => {
        const binding: Record<string, ResultTermJson> = {};
        for (const name of result.variables) {
          const term = row.get(name);
          if (term) binding[name] = termJson(term);
        }
        return binding;
      }),
    },
  };
}
