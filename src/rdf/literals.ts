// How JSON scalars become RDF literals and back: the annotated datatype when the value fits it, otherwise the
// datatype the JSON value naturally has; rdf:JSON literals in canonical form (RFC 8785, as jsonld.js writes them).
import { canonicalJson } from '../core/json.js';
import type { JsonValue } from '../core/json.js';
import { ns, rdf, xsd } from './vocabulary.js';

export interface LiteralForm {
  value: string;
  datatype: string;
}

const numericDatatypes = new Set<string>([
  xsd.integer,
  xsd.decimal,
  xsd.double,
  xsd.float,
  `${ns.xsd}long`,
  `${ns.xsd}int`,
  `${ns.xsd}nonNegativeInteger`,
]);

export { canonicalJson } from '../core/json.js';

export function jsonLiteral(value: JsonValue): LiteralForm {
  return { value: canonicalJson(value), datatype: rdf.JSON };
}

/**
 * The literal a JSON number has by itself, as JSON-LD 1.1 maps native numbers: xsd:integer for an integer written
 * without an exponent (below 10^21), xsd:double for any other (0.7, 1e+21), so that every JSON-LD processor gives the
 * same datatype (the lexical form: canonicalDouble).
 */
export function naturalNumber(value: number): LiteralForm {
  const text = String(value);
  return Number.isInteger(value) && !/e/i.test(text)
    ? { value: text, datatype: xsd.integer }
    : { value: canonicalDouble(value), datatype: xsd.double };
}

/**
 * The lexical form of an xsd:double: the one jsonld.js writes (16 significant digits in E notation, trailing zeros
 * dropped: 0.7 → 7.0E-1, 97.18 → 9.718000000000001E1), which every reading of the graph through jsonld.js keeps, when
 * it reads back as the same double; otherwise (0.30000000000000004, which 16 digits round to 0.3) the shortest digits
 * that do, so that lowering stays exact.
 */
export function canonicalDouble(value: number): string {
  const jsonLd = value.toExponential(15).replace(/(\d)0*e\+?/, '$1E');
  if (Number(jsonLd) === value) return jsonLd;
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** Whether a string is well-formed UTF-16 (no lone surrogate), which every RDF literal must be. */
export function isWellFormed(value: string): boolean {
  return (value as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The literal a JSON scalar has when no annotation says otherwise. A string with a lone surrogate (valid JSON:
 * `"\udc00"`) is no RDF string: it is kept exactly as an rdf:JSON literal, which JSON escapes to ASCII.
 */
export function naturalLiteral(value: string | number | boolean): LiteralForm {
  if (typeof value === 'string') return isWellFormed(value) ? { value, datatype: xsd.string } : jsonLiteral(value);
  if (typeof value === 'boolean') return { value: String(value), datatype: xsd.boolean };
  return naturalNumber(value);
}

// Lexical forms a store keeps as they are (canonical): values in other forms are kept as strings, so that
// lowering from a store that canonicalises (08.020Z → 08.02Z) still reproduces the original text.
const canonicalDateTime = /^-?\d{4,}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?(Z|[+-](0\d|1[0-4]):[0-5]\d)$/;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isBase64(value: string): boolean {
  return base64.test(value);
}

function fitsString(value: string, datatype: string): boolean {
  if (datatype === xsd.dateTime) return canonicalDateTime.test(value) && !/[+-]00:00$/.test(value);
  if (datatype === xsd.base64Binary) return isBase64(value);
  if (datatype === xsd.boolean || numericDatatypes.has(datatype) || datatype === rdf.JSON) return false;
  // xsd:string, xsd:anyURI and the schema's own string datatypes (mcp:Cursor, mcp:Role …) take any string.
  return datatype.startsWith(ns.xsd) ? datatype === xsd.string || datatype === xsd.anyURI : true;
}

function fitsNumber(value: number, datatype: string): LiteralForm | undefined {
  const text = String(value);
  if (datatype === xsd.integer) return Number.isSafeInteger(value) ? { value: text, datatype } : undefined;
  if (datatype === xsd.decimal)
    return Number.isFinite(value) && !/e/i.test(text) ? { value: text, datatype } : undefined;
  if (datatype === xsd.double) return Number.isFinite(value) ? { value: canonicalDouble(value), datatype } : undefined;
  if (datatype === xsd.float) return Number.isFinite(value) ? { value: text, datatype } : undefined;
  return undefined;
}

/** The literal for a JSON scalar under an annotated datatype: that datatype when the value fits it. */
export function annotatedLiteral(value: string | number | boolean, datatype: string): LiteralForm {
  if (typeof value === 'string')
    return fitsString(value, datatype) && isWellFormed(value) ? { value, datatype } : naturalLiteral(value);
  if (typeof value === 'number') return fitsNumber(value, datatype) ?? naturalNumber(value);
  return naturalLiteral(value);
}

/** The JSON value a literal stands for: numbers and booleans by datatype, rdf:JSON parsed, anything else a string. */
export function literalToJson(value: string, datatype: string): JsonValue {
  if (datatype === rdf.JSON) return JSON.parse(value) as JsonValue;
  if (datatype === xsd.boolean) return value === 'true' || value === '1';
  if (numericDatatypes.has(datatype)) return Number(value);
  return value;
}
