// Writes SELECT solutions as plain rows: one JSON object per solution, keyed by variable name (in the query's order),
// an unbound variable absent; numbers (xsd numeric types) as JSON numbers, xsd:boolean as true/false, IRIs compacted
// with the predeclared prefixes, everything else as its lexical form. As one JSON array, or JSON Lines. Pure.
import type { Term } from '@rdfjs/types';
import { ns, xsd } from '../rdf/index.js';
import type { QueryResult } from '../store/quad-store.js';
import { compactIri } from './prefixes.js';

type Solutions = Extract<QueryResult, { form: 'SELECT' }>;

/** The profile that names the rows format in a media type (`application/json; profile="…"`). */
export const rowsProfile = 'https://w3id.org/mcp-ld/rows';

// Integers and decimals are written as their digits (exact, however long); doubles and floats as JavaScript writes
// them.
const exactNumbers = new Set(
  [
    'integer',
    'decimal',
    'long',
    'int',
    'short',
    'byte',
    'nonNegativeInteger',
    'positiveInteger',
    'negativeInteger',
    'nonPositiveInteger',
    'unsignedLong',
    'unsignedInt',
    'unsignedShort',
    'unsignedByte',
  ].map((t) => ns.xsd + t),
);
const floatingNumbers = new Set<string>([xsd.double, xsd.float]);

/** The xsd numeric datatypes: their values are numbers in rows (and right-aligned in a table). */
export const numericDatatypes: ReadonlySet<string> = new Set([...exactNumbers, ...floatingNumbers]);

/** An xsd:integer or xsd:decimal lexical form as a JSON number (leading zeros and `+` dropped), or undefined. */
function exactNumber(lexical: string): string | undefined {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(lexical.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const integer = match[2]!.replace(/^0+(?=[0-9])/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const zero = /^0*$/.test(integer + fraction);
  return `${match[1] === '-' && !zero ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`;
}

/** The JSON text of one value: a number, true/false, or a string. */
function valueJson(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return JSON.stringify(compactIri(term.value) ?? term.value);
    case 'BlankNode':
      return JSON.stringify(`_:${term.value}`);
    case 'Literal': {
      const datatype = term.datatype.value;
      if (exactNumbers.has(datatype)) return exactNumber(term.value) ?? JSON.stringify(term.value);
      if (floatingNumbers.has(datatype)) {
        // INF, -INF and NaN have no JSON number: they stay strings.
        const number = /^\s*[+-]?(INF|NaN)\s*$/.test(term.value) ? NaN : Number(term.value);
        return Number.isFinite(number) ? JSON.stringify(number) : JSON.stringify(term.value.trim());
      }
      if (datatype === xsd.boolean) {
        const text = term.value.trim();
        if (text === 'true' || text === '1') return 'true';
        if (text === 'false' || text === '0') return 'false';
      }
      return JSON.stringify(term.value);
    }
    case 'Quad': {
      const part = (t: Term) =>
        t.termType === 'Literal' ? JSON.stringify(t.value) : (JSON.parse(valueJson(t)) as string);
      return JSON.stringify(`<< ${part(term.subject)} ${part(term.predicate)} ${part(term.object)} >>`);
    }
    default:
      return JSON.stringify(term.value);
  }
}

/** One solution as the JSON text of its object. */
function rowJson(variables: string[], row: Map<string, Term>): string {
  const members: string[] = [];
  for (const name of variables) {
    const term = row.get(name);
    if (term) members.push(`${JSON.stringify(name)}:${valueJson(term)}`);
  }
  return `{${members.join(',')}}`;
}

/** The rows as one JSON array, a row a line: `[\n{…},\n{…}\n]\n` (`[]\n` for none). */
export function rowsJson(result: Solutions): string {
  if (result.rows.length === 0) return '[]\n';
  return `[\n${result.rows.map((row) => rowJson(result.variables, row)).join(',\n')}\n]\n`;
}

/** The rows as JSON Lines: one object a line, each ended by a newline (nothing at all for none). */
export function rowsJsonLines(result: Solutions): string {
  return result.rows.map((row) => `${rowJson(result.variables, row)}\n`).join('');
}
