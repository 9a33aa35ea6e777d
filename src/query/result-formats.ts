// Writes query results: SELECT/ASK as SPARQL 1.1 Query Results JSON, XML, CSV or TSV (W3C formats) or an aligned
// text table for people, SELECT also as plain JSON rows or JSON Lines (rows.ts); CONSTRUCT/DESCRIBE graphs as
// N-Triples, N-Quads, Turtle, JSON-LD or RDF/XML. Pure: results in, text out.
import type { Quad, Term } from '@rdfjs/types';
import { DataFactory, type Quad as N3Quad } from 'n3';
import { McpLdError } from '../core/problem.js';
import { serialize, quadsToNQuads, xsd } from '../rdf/index.js';
import type { QueryForm, QueryResult } from '../store/quad-store.js';
import { resultsJson } from '../store/sparql-results.js';
import { compactIri } from './prefixes.js';
import { numericDatatypes, rowsJson, rowsJsonLines, rowsProfile } from './rows.js';
import { iriRef } from '../core/iri.js';

export const solutionFormats = ['table', 'json', 'xml', 'csv', 'tsv', 'rows', 'jsonl'] as const;
/** The formats of solutions that an ASK answer (a boolean, no solutions) has no form in. */
const rowFormats: readonly SolutionFormat[] = ['rows', 'jsonl'];
export const graphFormats = ['turtle', 'ntriples', 'nquads', 'jsonld', 'rdfxml'] as const;
export type SolutionFormat = (typeof solutionFormats)[number];
export type GraphFormat = (typeof graphFormats)[number];
export type ResultFormat = SolutionFormat | GraphFormat;

export const resultMediaTypes: Record<ResultFormat, string> = {
  table: 'text/plain; charset=utf-8',
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  rows: `application/json; profile="${rowsProfile}"`,
  jsonl: 'application/jsonl',
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  jsonld: 'application/ld+json',
  rdfxml: 'application/rdf+xml',
};

/**
 * Other media types a format is asked for by: clients ask for SPARQL results as plain JSON or XML (SPARQLWrapper's
 * JSON sends `application/json` among others); the answer then carries the type they named.
 */
export const resultMediaAliases: Partial<Record<ResultFormat, readonly string[]>> = {
  json: ['application/json'],
  xml: ['application/xml'],
};

export function isResultFormat(name: string): name is ResultFormat {
  return (solutionFormats as readonly string[]).includes(name) || (graphFormats as readonly string[]).includes(name);
}

/** The formats a query form can be written in. */
export function formatsFor(form: QueryForm): readonly ResultFormat[] {
  if (form === 'ASK') return solutionFormats.filter((format) => !rowFormats.includes(format));
  return form === 'SELECT' ? solutionFormats : graphFormats;
}

export async function writeResult(result: QueryResult, format: ResultFormat): Promise<string> {
  if (!formatsFor(result.form).includes(format)) {
    throw McpLdError.of('query.format-mismatch', {
      detail: `${result.form === 'ASK' ? 'an' : 'a'} ${result.form} query gives ${result.form === 'SELECT' ? 'solutions' : result.form === 'ASK' ? 'a boolean' : 'a graph'}: use one of ${formatsFor(result.form).join(', ')}, not ${format}`,
    });
  }
  if (result.form === 'SELECT' || result.form === 'ASK') return writeSolutions(result, format as SolutionFormat);
  return writeGraph(result.quads, format as GraphFormat);
}

export function writeSolutions(result: Solutions | Answer, format: SolutionFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(resultsJson(result)) + '\n';
    case 'xml':
      return resultsXml(result);
    case 'csv':
      return resultsCsv(result);
    case 'tsv':
      return resultsTsv(result);
    case 'table':
      return resultsTable(result);
    case 'rows':
    case 'jsonl':
      if (result.form === 'ASK')
        throw McpLdError.of('query.format-mismatch', {
          detail: `an ASK query gives a boolean, not rows: use one of ${formatsFor('ASK').join(', ')}`,
        });
      return format === 'rows' ? rowsJson(result) : rowsJsonLines(result);
  }
}

type Solutions = Extract<QueryResult, { form: 'SELECT' }>;
type Answer = Extract<QueryResult, { form: 'ASK' }>;

// ---- SPARQL 1.1 Query Results JSON Format -------------------------------------------------------------------

// Written by store/sparql-results.ts, where they are read too (a store hands its answers over as this text).
export { resultsJson } from '../store/sparql-results.js';

// ---- SPARQL Query Results XML Format ------------------------------------------------------------------------

// XML 1.0 cannot carry these characters at all, not even as references: they become U+FFFD.
const xmlForbidden =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const xmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

function xmlText(text: string): string {
  return text.replace(xmlForbidden, '\uFFFD').replace(/[&<>"\r]/g, (c) => xmlEscapes[c]!);
}

function xmlTerm(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<uri>${xmlText(term.value)}</uri>`;
    case 'BlankNode':
      return `<bnode>${xmlText(term.value)}</bnode>`;
    case 'Literal': {
      const attribute = term.language
        ? ` xml:lang="${xmlText(term.language)}"`
        : term.datatype.value === xsd.string
          ? ''
          : ` datatype="${xmlText(term.datatype.value)}"`;
      return `<literal${attribute}>${xmlText(term.value)}</literal>`;
    }
    case 'Quad':
      return `<triple><subject>${xmlTerm(term.subject)}</subject><predicate>${xmlTerm(term.predicate)}</predicate><object>${xmlTerm(term.object)}</object></triple>`;
    default:
      throw new Error(`a ${term.termType} cannot be a query result`);
  }
}

function resultsXml(result: Solutions | Answer): string {
  const open = '<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n';
  if (result.form === 'ASK') return `${open}<head/>\n<boolean>${result.boolean}</boolean>\n</sparql>\n`;
  const head = `<head>${result.variables.map((v) => `<variable name="${xmlText(v)}"/>`).join('')}</head>\n`;
  const rows = result.rows.map((row) => {
    const bindings = result.variables.flatMap((name) => {
      const term = row.get(name);
      return term ? [`<binding name="${xmlText(name)}">${xmlTerm(term)}</binding>`] : [];
    });
    return `<result>${bindings.join('')}</result>\n`;
  });
  return `${open}${head}<results>\n${rows.join('')}</results>\n</sparql>\n`;
}

// ---- SPARQL 1.1 Query Results CSV and TSV Formats -----------------------------------------------------------

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvTerm(term: Term): string {
  switch (term.termType) {
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Quad':
      return `<< ${tsvTerm(term.subject)} ${tsvTerm(term.predicate)} ${tsvTerm(term.object)} >>`;
    default:
      return term.value;
  }
}

/** CSV: lexical values only (no datatypes or language tags), fields quoted when needed, CRLF line ends. */
function resultsCsv(result: Solutions | Answer): string {
  if (result.form === 'ASK') return `${result.boolean}\r\n`;
  const lines = [result.variables.map(csvField).join(',')];
  for (const row of result.rows)
    lines.push(result.variables.map((name) => csvField(row.has(name) ? csvTerm(row.get(name)!) : '')).join(','));
  return lines.map((line) => `${line}\r\n`).join('');
}

const stringEscapes: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

function tsvString(text: string): string {
  return `"${text.replace(/[\t\n\r"\\]/g, (c) => stringEscapes[c]!)}"`;
}

// Literals that Turtle writes bare, by datatype: written bare only when the lexical form is in that grammar.
const bareLiterals: Record<string, RegExp> = {
  [xsd.integer]: /^[+-]?[0-9]+$/,
  [xsd.decimal]: /^[+-]?[0-9]*\.[0-9]+$/,
  [xsd.double]: /^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)[eE][+-]?[0-9]+$/,
  [xsd.boolean]: /^(true|false)$/,
};

function tsvTerm(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return iriRef(term.value);
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      if (term.language) return `${tsvString(term.value)}@${term.language}`;
      const datatype = term.datatype.value;
      if (datatype === xsd.string) return tsvString(term.value);
      if (bareLiterals[datatype]?.test(term.value)) return term.value;
      return `${tsvString(term.value)}^^${iriRef(datatype)}`;
    }
    case 'Quad':
      return `<< ${tsvTerm(term.subject)} ${tsvTerm(term.predicate)} ${tsvTerm(term.object)} >>`;
    default:
      throw new Error(`a ${term.termType} cannot be a query result`);
  }
}

/** TSV: `?var` headers, terms in Turtle syntax (tab, newline and return escaped in literals), LF line ends. */
function resultsTsv(result: Solutions | Answer): string {
  if (result.form === 'ASK') return `${result.boolean}\n`;
  const lines = [result.variables.map((v) => `?${v}`).join('\t')];
  for (const row of result.rows)
    lines.push(result.variables.map((name) => (row.has(name) ? tsvTerm(row.get(name)!) : '')).join('\t'));
  return lines.map((line) => `${line}\n`).join('');
}

// ---- an aligned text table, for people ----------------------------------------------------------------------

const cellLimit = 100;

/**
 * An xsd:dateTime in one fixed form, milliseconds always written (`2026-12-01T22:56:06.000Z`): the store gives
 * canonical forms (`…:06Z`, `…:06.75Z`), which neither line up in a column nor sort as text.
 */
function fixedTime(lexical: string): string {
  const match = /^(-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(lexical.trim());
  if (!match) return lexical;
  const fraction = (match[2] ?? '').padEnd(3, '0');
  return `${match[1]}.${fraction}${match[3] ?? ''}`;
}

/** The numeric datatypes whose values have fractions (means, rates): shown rounded in a table. */
const fractionalDatatypes: ReadonlySet<string> = new Set([xsd.decimal, xsd.double, xsd.float]);

/**
 * A mean or a rate as a person reads it: three decimals (`264.097`, `0.333`), three significant digits below 0.001,
 * integers as integers; INF and NaN as written. Tables only: the other formats keep every digit.
 */
function readableNumber(lexical: string): string {
  const value = Number(lexical);
  if (!Number.isFinite(value) || lexical.trim() === '') return lexical.trim();
  if (Number.isInteger(value)) return String(value);
  return String(Math.abs(value) >= 0.001 ? Number(value.toFixed(3)) : Number(value.toPrecision(3)));
}

function literalCell(term: Term & { termType: 'Literal' }): string {
  if (term.language) return `${term.value}@${term.language}`;
  const datatype = term.datatype.value;
  if (datatype === xsd.dateTime) return fixedTime(term.value);
  if (fractionalDatatypes.has(datatype)) return readableNumber(term.value);
  return term.value;
}

function tableCell(term: Term | undefined): string {
  if (!term) return '';
  let text: string;
  switch (term.termType) {
    case 'NamedNode':
      text = compactIri(term.value, { loose: true }) ?? `<${term.value}>`;
      break;
    case 'BlankNode':
      text = `_:${term.value}`;
      break;
    case 'Literal':
      text = literalCell(term);
      break;
    case 'Quad':
      text = `<< ${tableCell(term.subject)} ${tableCell(term.predicate)} ${tableCell(term.object)} >>`;
      break;
    default:
      text = term.value;
  }
  text = text.replace(/[\u0000-\u001F\u007F]/g, (c) => ({ '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c] ?? ' ');
  const chars = [...text];
  return chars.length > cellLimit ? chars.slice(0, cellLimit - 1).join('') + '…' : text;
}

function width(text: string): number {
  return [...text].length;
}

/** Columns aligned with spaces (numbers to the right), one line per solution, and a count; long cells shortened. */
function resultsTable(result: Solutions | Answer): string {
  if (result.form === 'ASK') return `${result.boolean}\n`;
  const header = result.variables;
  const cells = result.rows.map((row) => header.map((name) => tableCell(row.get(name))));
  const right = header.map(
    (name) =>
      result.rows.length > 0 &&
      result.rows.every((row) => {
        const term = row.get(name);
        return !term || (term.termType === 'Literal' && numericDatatypes.has(term.datatype.value));
      }),
  );
  const widths = header.map((name, i) => Math.max(width(name), ...cells.map((row) => width(row[i]!))));
  const pad = (text: string, i: number) =>
    right[i] ? ' '.repeat(widths[i]! - width(text)) + text : text + ' '.repeat(widths[i]! - width(text));
  const line = (row: string[]) => row.map(pad).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
  out.push(`(${result.rows.length} ${result.rows.length === 1 ? 'row' : 'rows'})`);
  return out.join('\n') + '\n';
}

// ---- graphs -------------------------------------------------------------------------------------------------

function n3Term(term: Term): Term {
  switch (term.termType) {
    case 'NamedNode':
      return DataFactory.namedNode(term.value);
    case 'BlankNode':
      return DataFactory.blankNode(term.value);
    case 'Literal':
      return DataFactory.literal(term.value, term.language || DataFactory.namedNode(term.datatype.value));
    case 'DefaultGraph':
      return DataFactory.defaultGraph();
    case 'Quad':
      return n3Quad(term as Quad);
    default:
      throw new Error(`a ${term.termType} cannot be in a result graph`);
  }
}

function n3Quad(q: Quad): N3Quad {
  return DataFactory.quad(
    n3Term(q.subject) as never,
    n3Term(q.predicate) as never,
    n3Term(q.object) as never,
    n3Term(q.graph) as never,
  );
}

export async function writeGraph(quads: Quad[], format: GraphFormat): Promise<string> {
  switch (format) {
    case 'ntriples':
      return quadsToNQuads(
        quads.map((q) =>
          DataFactory.quad(n3Term(q.subject) as never, n3Term(q.predicate) as never, n3Term(q.object) as never),
        ),
      );
    case 'nquads':
      return quadsToNQuads(quads);
    case 'turtle':
      return serialize(quads.map(n3Quad), 'turtle');
    case 'jsonld':
      return serialize(quads.map(n3Quad), 'jsonld');
    case 'rdfxml':
      // A graph RDF/XML cannot write (a predicate that ends in no XML name, a control character) is a 406.
      return serialize(quads.map(n3Quad), 'rdfxml');
  }
}
