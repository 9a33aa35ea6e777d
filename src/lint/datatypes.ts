// JSON types of schema values and the value spaces of the XSD datatypes annotations give them: which JSON values
// a datatype can describe. Knows datatypes, not schemas (the schema walker says which JSON types a schema allows).
import type { JsonType, JsonTypes } from '../schema/walker.js';
import { xsdDecimalTypes, xsdIntegerTypes } from '../rdf/vocabulary.js';

export type { JsonType };

/** The JSON types a schema allows for a value; `any` when the schema gives no type at all. */
export type ValueTypes = JsonTypes;

const xsdNamespace = 'http://www.w3.org/2001/XMLSchema#';
export const rdfJson = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON';

/** Datatype families: the value spaces that matter when comparing with JSON types. */
export type DatatypeFamily = 'boolean' | 'integer' | 'decimal' | 'text' | 'binary' | 'json';

const families: Record<DatatypeFamily, string[]> = {
  boolean: ['boolean'],
  integer: [...xsdIntegerTypes],
  decimal: [...xsdDecimalTypes],
  text: [
    'string',
    'normalizedString',
    'token',
    'language',
    'Name',
    'NCName',
    'NMTOKEN',
    'QName',
    'anyURI',
    'dateTime',
    'dateTimeStamp',
    'date',
    'time',
    'duration',
    'dayTimeDuration',
    'yearMonthDuration',
    'gYear',
    'gYearMonth',
    'gMonth',
    'gMonthDay',
    'gDay',
  ],
  binary: ['base64Binary', 'hexBinary'],
  json: [],
};

/** The family of an XSD datatype (or rdf:JSON); undefined for any other IRI. */
export function datatypeFamily(iri: string): DatatypeFamily | undefined {
  if (iri === rdfJson) return 'json';
  if (!iri.startsWith(xsdNamespace)) return undefined;
  const local = iri.slice(xsdNamespace.length);
  return (Object.keys(families) as DatatypeFamily[]).find((family) => families[family].includes(local));
}

/** The JSON types whose values a datatype family can hold as literals. */
export function jsonTypesFor(family: DatatypeFamily): ReadonlySet<JsonType> {
  switch (family) {
    case 'boolean':
      return new Set(['boolean']);
    case 'integer':
      return new Set(['integer']);
    case 'decimal':
      return new Set(['number', 'integer']);
    case 'text':
    case 'binary':
      return new Set(['string']);
    case 'json':
      return new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
  }
}

export const scalarTypes: ReadonlySet<JsonType> = new Set(['string', 'number', 'integer', 'boolean']);

/** `string | integer`, or `any JSON`: how a message names the JSON type of a value. */
export function describeTypes(types: ValueTypes): string {
  if (types === 'any') return 'any JSON value';
  const named = [...types].filter((type) => type !== 'null');
  return (named.length > 0 ? named : [...types]).sort().join(' | ');
}
