// The term model: what each JSON key of a schema object means in RDF, read from the effective schema's
// `x-jsonld-*` annotations by following `$ref`, `allOf`, `anyOf`/`oneOf` and array `items`. It never reads the
// seed or hard-codes a definition: whatever the overlay makes of the schema is what the terms say.
import { isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { documentUris, type DocumentId } from '../schema/documents.js';
import type { RefResolver, SchemaLocation } from '../schema/refs.js';
import { expandIri, isKeyword, localName, type PrefixMap } from './iris.js';

/**
 * - `literal`: a JSON scalar with the annotated datatype (none: the JSON-native one);
 * - `reference`: a string that is an IRI (`@id`) or a vocabulary term (`@vocab`);
 * - `json`: any JSON value kept whole as an `rdf:JSON` literal (nothing below it has terms);
 * - `node`: a JSON object, which becomes a node described by the terms of `scope`;
 * - `alias`: the key stands for a JSON-LD keyword.
 */
export type TermKind = 'literal' | 'reference' | 'json' | 'node' | 'alias';

export interface TermModel {
  key: string;
  /** Expanded IRI (a keyword for an alias). */
  iri: string;
  kind: TermKind;
  /** `literal`: the expanded datatype IRI, if annotated; `reference`: `@id` or `@vocab`. */
  type?: string;
  /** `node`: the class annotated on the object (a context cannot type a node; the lifter adds `rdf:type`). */
  classIri?: string;
  /** `@list`, `@set`, … as annotated (never on `json`: the literal keeps the array). */
  container?: string;
  /**
   * `node`: the terms of the value object. `exact` scopes (the default) hold exactly its definition's annotated
   * properties and are written after a reset; `override` scopes only redefine some keys of the enclosing context.
   */
  scope?: TermMap;
  scopeMode?: 'exact' | 'override';
  /** Where the annotation is, as `<document URI>#<JSON pointer>`. */
  source: string;
}

export type TermMap = Map<string, TermModel>;

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export function locationId(location: SchemaLocation): string {
  return `${documentUris[location.document]}#${location.pointer}`;
}

function child(location: SchemaLocation, tokens: string[], node: JsonObject): SchemaLocation {
  return { document: location.document, pointer: joinPointer(location.pointer, ...tokens), node };
}

function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'string' | 'boolean';
}

/** Alternatives of a schema node: its `anyOf` and `oneOf` members, with their locations. */
export function alternativesOf(location: SchemaLocation): SchemaLocation[] {
  const result: SchemaLocation[] = [];
  for (const keyword of ['anyOf', 'oneOf']) {
    const list = location.node[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((member, index) => {
      if (isJsonObject(member)) result.push(child(location, [keyword, String(index)], member));
    });
  }
  return result;
}

export function allOfMembers(location: SchemaLocation): SchemaLocation[] {
  const list = location.node['allOf'];
  if (!Array.isArray(list)) return [];
  return list.flatMap((member, index) => (isJsonObject(member) ? [child(location, ['allOf', String(index)], member)] : []));
}

/** Reads the schema's annotations into term models. */
export class TermWalker {
  constructor(
    readonly resolver: RefResolver,
    readonly prefixes: PrefixMap,
  ) {}

  /** The JSON types a schema admits, or `any` when it does not constrain them. */
  jsonTypes(location: SchemaLocation, depth = 0): Set<JsonType> | 'any' {
    if (depth > 32) return 'any';
    const target = this.resolver.follow(location);
    const node = target.node;
    const declared = node['type'];
    if (typeof declared === 'string') return new Set([declared as JsonType]);
    if (Array.isArray(declared)) return new Set(declared.filter((t): t is string => typeof t === 'string') as JsonType[]);
    if ('const' in node) return new Set([jsonTypeOf(node['const']!)]);
    if (Array.isArray(node['enum'])) return new Set(node['enum'].map(jsonTypeOf));
    if ('properties' in node || 'additionalProperties' in node || 'required' in node || 'patternProperties' in node) return new Set(['object']);
    if ('items' in node) return new Set(['array']);
    const union = new Set<JsonType>();
    const alternatives = alternativesOf(target);
    for (const alternative of alternatives) {
      const types = this.jsonTypes(alternative, depth + 1);
      if (types === 'any') return 'any';
      for (const type of types) union.add(type);
    }
    if (alternatives.length > 0) return union;
    for (const member of allOfMembers(target)) {
      const types = this.jsonTypes(member, depth + 1);
      if (types !== 'any') for (const type of types) union.add(type);
    }
    return union.size > 0 ? union : 'any';
  }

  /**
   * Where the object a property holds is described: the property's own schema when it admits objects, its
   * `items` when it is an array of objects; undefined for scalars, arrays of scalars and unconstrained values.
   */
  objectOf(location: SchemaLocation): SchemaLocation | undefined {
    const types = this.jsonTypes(location);
    if (types === 'any') return undefined;
    const target = this.resolver.follow(location);
    if (types.has('object')) return target;
    const nonNull = [...types].filter((t) => t !== 'null');
    if (nonNull.length !== 1 || nonNull[0] !== 'array') return undefined;
    let items = target.node['items'];
    let tokens = ['items'];
    if (Array.isArray(items)) {
      items = items[0];
      tokens = ['items', '0'];
    }
    if (!isJsonObject(items)) return undefined;
    const itemLocation = child(target, tokens, items);
    const itemTypes = this.jsonTypes(itemLocation);
    return itemTypes !== 'any' && itemTypes.has('object') ? this.resolver.follow(itemLocation) : undefined;
  }

  /**
   * The terms of the object `location` describes: its `allOf` members' (inherited), overridden by its own
   * annotated `properties`, merged with those of its `anyOf`/`oneOf` alternatives (a key the alternatives give
   * different meanings is an error). `exclude` skips `allOf` members in that document (the JSON-RPC envelope
   * of a result definition).
   */
  objectTerms(location: SchemaLocation, options: { exclude?: DocumentId } = {}, stack: readonly string[] = []): TermMap {
    const target = this.resolver.follow(location);
    const id = locationId(target);
    if (stack.includes(id)) {
      throw new McpLdError({
        code: 'context.recursive-schema',
        status: 500,
        title: 'Recursive schema',
        detail: `${id} contains itself (${[...stack, id].join(' → ')}); property-scoped contexts cannot be nested without end`,
        pointer: target.pointer,
      });
    }
    const inner = [...stack, id];

    let terms: TermMap = new Map();
    for (const member of allOfMembers(target)) {
      if (options.exclude !== undefined && this.resolver.follow(member).document === options.exclude) continue;
      terms = mergeTermMaps(terms, this.objectTerms(member, {}, inner));
    }

    const properties = target.node['properties'];
    if (isJsonObject(properties)) {
      for (const [key, schema] of Object.entries(properties)) {
        if (!isJsonObject(schema)) continue;
        const term = this.propertyTerm(key, child(target, ['properties', key], schema), inner);
        if (term) terms.set(key, term);
      }
    }

    let alternatives: TermMap | undefined;
    for (const alternative of alternativesOf(target)) {
      if (options.exclude !== undefined && this.resolver.follow(alternative).document === options.exclude) continue;
      const altTerms = this.objectTerms(alternative, {}, inner);
      alternatives = alternatives === undefined ? altTerms : mergeTermMaps(alternatives, altTerms);
    }
    return alternatives === undefined ? terms : mergeTermMaps(terms, alternatives);
  }

  /**
   * The term of one annotated property (undefined when it has no `x-jsonld-id`). With `scoped`, an object value
   * carries the terms of its own definition, recursively.
   */
  propertyTerm(key: string, location: SchemaLocation, stack: readonly string[] = [], scoped = true): TermModel | undefined {
    const node = location.node;
    const id = node['x-jsonld-id'];
    if (typeof id !== 'string' || id === '') return undefined;
    const iri = expandIri(id, this.prefixes);
    const source = locationId(location);
    if (isKeyword(iri)) return { key, iri, kind: 'alias', source };
    const annotatedType = typeof node['x-jsonld-type'] === 'string' ? expandIri(node['x-jsonld-type'], this.prefixes) : undefined;
    const container = typeof node['x-jsonld-container'] === 'string' ? node['x-jsonld-container'] : undefined;
    if (annotatedType === '@json') return { key, iri, kind: 'json', type: '@json', source };

    const withContainer = (term: TermModel): TermModel => (container === undefined ? term : { ...term, container });
    const object = this.objectOf(location);
    if (object !== undefined) {
      const term: TermModel = { key, iri, kind: 'node', source };
      if (annotatedType !== undefined && !isKeyword(annotatedType)) term.classIri = annotatedType;
      if (scoped) term.scope = this.objectTerms(object, {}, stack);
      return withContainer(term);
    }
    if (annotatedType === '@id' || annotatedType === '@vocab') return withContainer({ key, iri, kind: 'reference', type: annotatedType, source });
    const term: TermModel = { key, iri, kind: 'literal', source };
    if (annotatedType !== undefined) term.type = annotatedType;
    return withContainer(term);
  }
}

/** Whether two terms say the same thing about their key (their scopes aside). */
export function sameMeaning(a: TermModel, b: TermModel): boolean {
  return a.iri === b.iri && a.kind === b.kind && a.type === b.type && a.classIri === b.classIri && a.container === b.container;
}

export function describeTerm(term: TermModel): string {
  const parts: string[] = [term.kind];
  if (term.type !== undefined) parts.push(term.type);
  if (term.classIri !== undefined) parts.push(`class ${term.classIri}`);
  if (term.container !== undefined) parts.push(term.container);
  return `<${term.iri}> (${parts.join(', ')})`;
}

function conflict(a: TermModel, b: TermModel): McpLdError {
  return new McpLdError({
    code: 'context.conflicting-annotations',
    status: 500,
    title: 'Conflicting annotations',
    detail:
      `key "${a.key}" means ${describeTerm(a)} at ${a.source} but ${describeTerm(b)} at ${b.source}; ` +
      'one JSON object cannot give a key two meanings: correct the annotations in the overlay',
    pointer: a.source.slice(a.source.indexOf('#') + 1),
  });
}

/** Merges the terms of two schemas that describe the same object; a key they give different meanings is an error. */
export function mergeTermMaps(a: TermMap, b: TermMap): TermMap {
  const merged: TermMap = new Map(a);
  for (const [key, term] of b) {
    const existing = merged.get(key);
    merged.set(key, existing === undefined ? term : mergeTerms(existing, term));
  }
  return merged;
}

function mergeTerms(a: TermModel, b: TermModel): TermModel {
  if (!sameMeaning(a, b)) throw conflict(a, b);
  if (a.scope !== undefined && b.scope !== undefined) return { ...a, scope: mergeTermMaps(a.scope, b.scope) };
  return a.scope === undefined && b.scope !== undefined ? { ...a, scope: b.scope } : a;
}

/** The JSON-RPC definition (`#Request`, `#Notification`, `#Response`) a message definition builds on. */
export function jsonRpcEnvelope(resolver: RefResolver, location: SchemaLocation, depth = 0): SchemaLocation | undefined {
  if (depth > 16) return undefined;
  const target = resolver.follow(location);
  if (target.document === 'json-rpc') return target;
  for (const member of allOfMembers(target)) {
    const found = jsonRpcEnvelope(resolver, member, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The terms of a document's `x-jsonld-extra-terms` (classes such as `Tool`, and a few properties), as declared:
 * a string is an IRI; a mapping has `x-jsonld-id` and optionally `x-jsonld-type`.
 */
export function extraTerms(document: DocumentId, root: JsonObject, prefixes: PrefixMap): TermModel[] {
  const extra = root['x-jsonld-extra-terms'];
  if (!isJsonObject(extra)) return [];
  const terms: TermModel[] = [];
  for (const [key, value] of Object.entries(extra)) {
    const source = `${documentUris[document]}#${joinPointer('/x-jsonld-extra-terms', key)}`;
    const id = typeof value === 'string' ? value : isJsonObject(value) ? value['x-jsonld-id'] : undefined;
    if (typeof id !== 'string' || id === '') continue;
    const iri = expandIri(id, prefixes);
    if (isKeyword(iri)) {
      terms.push({ key, iri, kind: 'alias', source });
      continue;
    }
    const rawType = isJsonObject(value) && typeof value['x-jsonld-type'] === 'string' ? expandIri(value['x-jsonld-type'], prefixes) : undefined;
    const term: TermModel =
      rawType === '@json'
        ? { key, iri, kind: 'json', type: '@json', source }
        : rawType === '@id' || rawType === '@vocab'
          ? { key, iri, kind: 'reference', type: rawType, source }
          : { key, iri, kind: 'literal', source };
    if (term.kind === 'literal' && rawType !== undefined) term.type = rawType;
    const container = isJsonObject(value) ? value['x-jsonld-container'] : undefined;
    if (typeof container === 'string' && term.kind !== 'json') term.container = container;
    terms.push(term);
  }
  return terms;
}

/** A class term names a class: its IRI's local name starts with a capital letter (`mcp:Tool`, `jrpc:Request`). */
export function isClassTerm(term: TermModel): boolean {
  return /^[A-Z]/.test(localName(term.iri));
}
