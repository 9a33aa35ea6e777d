// The term model: what each JSON key of a schema object means in RDF, read from the effective schema's
// `x-jsonld-*` annotations by following `$ref`, `allOf`, `anyOf`/`oneOf` and array `items`. It never reads the
// seed or hard-codes a definition: whatever the overlay makes of the schema is what the terms say.
import { isJsonObject, joinPointer, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { documentUris, type DocumentId } from '../schema/documents.js';
import type { RefResolver, SchemaLocation } from '../schema/refs.js';
import { SchemaWalker, type JsonTypes } from '../schema/walker.js';
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

export function locationId(location: SchemaLocation): string {
  return `${documentUris[location.document]}#${location.pointer}`;
}

/** Reads the schema's annotations into term models. */
export class TermWalker {
  readonly schema: SchemaWalker;

  constructor(
    readonly resolver: RefResolver,
    readonly prefixes: PrefixMap,
  ) {
    this.schema = new SchemaWalker(resolver);
  }

  /** The JSON types a schema admits, or `any` when it does not constrain them. */
  jsonTypes(location: SchemaLocation): JsonTypes {
    return this.schema.jsonTypes(location);
  }

  /**
   * Where the object a property holds is described: the property's own schema when it admits objects, its
   * `items` when it is an array of objects; undefined for scalars, arrays of scalars and unconstrained values.
   */
  objectOf(location: SchemaLocation): SchemaLocation | undefined {
    return this.schema.objectOf(location);
  }

  /**
   * The terms of the object `location` describes: its `$ref` target's and `allOf` members' (inherited), overridden by
   * its own
   * annotated `properties`, merged with those of its `anyOf`/`oneOf` alternatives (a key the alternatives give
   * different meanings is an error). `exclude` skips `allOf` members in that document (the JSON-RPC envelope
   * of a result definition).
   */
  objectTerms(
    location: SchemaLocation,
    options: { exclude?: DocumentId } = {},
    stack: readonly string[] = [],
  ): TermMap {
    const id = locationId(location);
    if (stack.includes(id)) {
      throw McpLdError.of('context.recursive-schema', {
        detail: `${id} contains itself (${[...stack, id].join(' → ')}); property-scoped contexts cannot be nested without end`,
        pointer: location.pointer,
      });
    }
    const inner = [...stack, id];
    const excluded = (part: SchemaLocation): boolean =>
      options.exclude !== undefined && this.schema.follow(part).document === options.exclude;
    const parts = this.schema.objectParts(location);

    // A `$ref` target is this same object (what it excludes too); `allOf` members are what it builds on.
    let terms: TermMap = parts.ref ? this.objectTerms(parts.ref, options, inner) : new Map();
    for (const member of parts.allOf)
      if (!excluded(member)) terms = mergeTermMaps(terms, this.objectTerms(member, {}, inner));
    for (const [key, schema] of parts.properties) {
      const term = this.propertyTerm(key, schema, inner);
      if (term) terms.set(key, term);
    }

    let alternatives: TermMap | undefined;
    for (const alternative of parts.alternatives) {
      if (excluded(alternative)) continue;
      const altTerms = this.objectTerms(alternative, {}, inner);
      alternatives = alternatives === undefined ? altTerms : mergeTermMaps(alternatives, altTerms);
    }
    return alternatives === undefined ? terms : mergeTermMaps(terms, alternatives);
  }

  /**
   * The term of one annotated property (undefined when it has no `x-jsonld-id`). With `scoped`, an object value
   * carries the terms of its own definition, recursively.
   */
  propertyTerm(
    key: string,
    location: SchemaLocation,
    stack: readonly string[] = [],
    scoped = true,
  ): TermModel | undefined {
    const node = location.node;
    const id = node['x-jsonld-id'];
    if (typeof id !== 'string' || id === '') return undefined;
    const iri = expandIri(id, this.prefixes);
    const source = locationId(location);
    if (isKeyword(iri)) return { key, iri, kind: 'alias', source };
    const annotatedType =
      typeof node['x-jsonld-type'] === 'string' ? expandIri(node['x-jsonld-type'], this.prefixes) : undefined;
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
    if (annotatedType === '@id' || annotatedType === '@vocab')
      return withContainer({ key, iri, kind: 'reference', type: annotatedType, source });
    const term: TermModel = { key, iri, kind: 'literal', source };
    if (annotatedType !== undefined) term.type = annotatedType;
    return withContainer(term);
  }
}

/** Whether two terms say the same thing about their key (their scopes aside). */
function sameMeaning(a: TermModel, b: TermModel): boolean {
  return (
    a.iri === b.iri &&
    a.kind === b.kind &&
    a.type === b.type &&
    a.classIri === b.classIri &&
    a.container === b.container
  );
}

function describeTerm(term: TermModel): string {
  const parts: string[] = [term.kind];
  if (term.type !== undefined) parts.push(term.type);
  if (term.classIri !== undefined) parts.push(`class ${term.classIri}`);
  if (term.container !== undefined) parts.push(term.container);
  return `<${term.iri}> (${parts.join(', ')})`;
}

function conflict(a: TermModel, b: TermModel): McpLdError {
  return McpLdError.of('context.conflicting-annotations', {
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
    const rawType =
      isJsonObject(value) && typeof value['x-jsonld-type'] === 'string'
        ? expandIri(value['x-jsonld-type'], prefixes)
        : undefined;
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
