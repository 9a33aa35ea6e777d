// Values the message body keeps whole, as canonical rdf:JSON literals (so that lowering is exact), that are also
// lifted as data of their own, for queries: JSON Schemas (a tool's inputSchema and outputSchema, an elicitation's
// requestedSchema, also inside 2026-07-28's inputRequests) as schema and parameter nodes, and JSON objects (structured
// content, nested argument values) as
// member nodes. All of it is derived — part of the lifter's session layer, never read back by lowering — and every
// node is named by the JSON path below the node that holds the literal, so IRIs are deterministic and mirror
// JSON pointers (`…/result/tools/0/inputSchema/properties/path`, `…/result/structuredContent/coordinates/lat`).
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { jsonLiteral, naturalLiteral, type LiteralForm } from '../rdf/literals.js';
import { childIri, mld, rdf, xsd } from '../rdf/vocabulary.js';

/** Where derived triples go (the lifter's session layer). */
export interface DerivedSink {
  node(subject: string, predicate: string, object: string): void;
  literal(subject: string, predicate: string, form: LiteralForm): void;
}

/** JSON Schema keywords with a scalar value, lifted one literal each, as the value is (natural datatype). */
const scalarKeywords: ReadonlyArray<readonly [string, string]> = [
  ['$schema', mld.schemaDialect],
  ['title', mld.title],
  ['description', mld.description],
  ['format', mld.format],
  ['pattern', mld.pattern],
  ['minimum', mld.minimum],
  ['maximum', mld.maximum],
  ['exclusiveMinimum', mld.exclusiveMinimum],
  ['exclusiveMaximum', mld.exclusiveMaximum],
  ['minLength', mld.minLength],
  ['maxLength', mld.maxLength],
  ['minItems', mld.minItems],
  ['maxItems', mld.maxItems],
  ['additionalProperties', mld.additionalProperties],
];

const isScalar = (value: JsonValue | undefined): value is string | number | boolean =>
  value !== null && value !== undefined && typeof value !== 'object';

/** A JSON value as one literal: scalars by their natural datatype, anything else (null too) as rdf:JSON. */
function valueLiteral(value: JsonValue): LiteralForm {
  return isScalar(value) ? naturalLiteral(value) : jsonLiteral(value);
}

/**
 * A JSON Schema as data. The schema itself is a mld:Schema node at `iri` (its type, dialect, constraints); each
 * entry of its `properties` a mld:Parameter node (name, whether `required` names it, and its own schema, nested
 * parameters included); its `items` a mld:Schema node. `parameterLink` links `owner` to each top-level parameter
 * (mld:inputParameter, mld:outputParameter, mld:requestedParameter) and `schemaLink` to the schema node.
 */
export function liftSchema(
  out: DerivedSink,
  owner: string,
  schemaLink: string,
  parameterLink: string,
  iri: string,
  schema: JsonObject,
): void {
  out.node(owner, schemaLink, iri);
  out.node(iri, rdf.type, mld.Schema);
  describeSchema(out, iri, schema, (parameter) => out.node(owner, parameterLink, parameter));
}

function describeSchema(
  out: DerivedSink,
  iri: string,
  schema: JsonObject,
  onParameter?: (parameter: string) => void,
): void {
  const type = schema['type'];
  if (typeof type === 'string') out.literal(iri, mld.jsonType, { value: type, datatype: xsd.string });
  else if (Array.isArray(type))
    for (const t of type) if (typeof t === 'string') out.literal(iri, mld.jsonType, { value: t, datatype: xsd.string });
  for (const [keyword, predicate] of scalarKeywords) {
    const value = schema[keyword];
    if (isScalar(value)) out.literal(iri, predicate, naturalLiteral(value));
  }
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues)) for (const value of enumValues) out.literal(iri, mld.enumValue, valueLiteral(value));
  if ('const' in schema) out.literal(iri, mld.constValue, valueLiteral(schema['const']!));
  if ('default' in schema) out.literal(iri, mld.default, valueLiteral(schema['default']!));
  const properties = schema['properties'];
  if (isJsonObject(properties)) {
    const required = new Set(
      Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : [],
    );
    const base = childIri(iri, 'properties');
    for (const [name, property] of Object.entries(properties)) {
      if (!isJsonObject(property)) continue;
      const parameter = childIri(base, name);
      out.node(iri, mld.nestedParameter, parameter);
      onParameter?.(parameter);
      out.node(parameter, rdf.type, mld.Parameter);
      out.literal(parameter, mld.parameterName, { value: name, datatype: xsd.string });
      out.literal(parameter, mld.required, { value: String(required.has(name)), datatype: xsd.boolean });
      describeSchema(out, parameter, property);
    }
  }
  const items = schema['items'];
  if (isJsonObject(items)) {
    const node = childIri(iri, 'items');
    out.node(iri, mld.items, node);
    out.node(node, rdf.type, mld.Schema);
    describeSchema(out, node, items);
  }
}

/** The IRIs of the top-level parameters that liftSchema gives a schema at `iri`. */
export function topParameters(iri: string, schema: JsonValue | undefined): string[] {
  const properties = isJsonObject(schema) ? schema['properties'] : undefined;
  if (!isJsonObject(properties)) return [];
  const base = childIri(iri, 'properties');
  return Object.keys(properties).flatMap((name) => (isJsonObject(properties[name]) ? [childIri(base, name)] : []));
}

/**
 * The members of a JSON object or array as mld:Member nodes below `base`, linked from `owner` by `link`: each with
 * its key (mld:memberName) or position (mld:memberIndex), and either its value (mld:memberValue: a scalar literal, or
 * rdf:JSON for null, `{}` and `[]`) or, for an object or array that has members, its own members (mld:member).
 */
export function liftMembers(
  out: DerivedSink,
  owner: string,
  link: string,
  base: string,
  value: JsonObject | JsonValue[],
): void {
  const isArray = Array.isArray(value);
  const entries: [string | number, JsonValue][] = isArray ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, member] of entries) {
    const node = childIri(base, key);
    out.node(owner, link, node);
    out.node(node, rdf.type, mld.Member);
    if (isArray) out.literal(node, mld.memberIndex, { value: String(key), datatype: xsd.integer });
    else out.literal(node, mld.memberName, { value: key as string, datatype: xsd.string });
    if (hasMembers(member)) liftMembers(out, node, mld.member, node, member);
    else out.literal(node, mld.memberValue, valueLiteral(member));
  }
}

/** A non-empty object or array: one whose members are lifted as nodes. */
export function hasMembers(value: JsonValue): value is JsonObject | JsonValue[] {
  return (
    value !== null &&
    typeof value === 'object' &&
    (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0)
  );
}
