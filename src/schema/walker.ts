// The one reading of JSON Schema every stage shares (lint, contexts, ontology): where a document keeps its
// definitions (`definitions`, draft-07, or `$defs`, 2020-12), the JSON types a schema admits, the object a property's
// value is described by, and the property schemas of an object schema, following `$ref` through the RefResolver.
import { isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../core/json.js';
import type { RefResolver, SchemaLocation } from './refs.js';

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** The JSON types a schema admits; `any` when it does not constrain them. */
export type JsonTypes = ReadonlySet<JsonType> | 'any';

type Composition = 'allOf' | 'anyOf' | 'oneOf';

/** The keywords that make a schema without `type` describe an object. */
const objectKeywords = ['properties', 'additionalProperties', 'patternProperties'];

/** Where a schema document keeps its definitions: `$defs` (2020-12) when it has them, else `definitions` (draft-07). */
export function definitionsKeyword(document: JsonObject): 'definitions' | '$defs' {
  return isJsonObject(document['$defs']) || !isJsonObject(document['definitions']) ? '$defs' : 'definitions';
}

/** A document's definitions by name, under whichever keyword it uses. */
export function definitionsOf(document: JsonObject): JsonObject {
  const definitions = document[definitionsKeyword(document)];
  return isJsonObject(definitions) ? definitions : {};
}

/** The JSON pointer of definition `name` of `document`. */
export function definitionPointer(document: JsonObject, name: string): string {
  return joinPointer(`/${definitionsKeyword(document)}`, name);
}

/** The definition name a pointer names (`/definitions/Root` or `/$defs/Root`), if it names a top-level definition. */
export function definitionNameAt(pointer: string): string | undefined {
  const match = /^\/(?:definitions|\$defs)\/([^/]+)$/.exec(pointer);
  return match ? match[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

function jsonTypeOf(value: JsonValue): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value as 'string' | 'boolean';
}

/** The types both sets admit (an integer is a number). */
function intersect(a: JsonTypes, b: JsonTypes): JsonTypes {
  if (a === 'any') return b;
  if (b === 'any') return a;
  const both = new Set<JsonType>();
  for (const type of a) {
    if (b.has(type)) both.add(type);
    else if (type === 'integer' && b.has('number')) both.add('integer');
  }
  for (const type of b) if (type === 'integer' && a.has('number')) both.add('integer');
  return both;
}

/** The types either admits; `any` when one of them is unconstrained. */
function unite(sets: JsonTypes[]): JsonTypes {
  const union = new Set<JsonType>();
  for (const types of sets) {
    if (types === 'any') return 'any';
    for (const type of types) union.add(type);
  }
  return union;
}

function locationKey(location: SchemaLocation): string {
  return `${location.document}#${location.pointer}`;
}

interface WalkerOptions {
  /**
   * `skip`: an unresolvable `$ref` constrains nothing (the lint reads seeds whose refs may be broken; the schema
   * stage reports them). `throw` (the default): it is an error.
   */
  unresolved?: 'throw' | 'skip';
}

/** The object schema's parts that give it properties, in the order they apply. */
export interface ObjectParts {
  /** Its own `properties` entries. */
  properties: [string, SchemaLocation][];
  /** The schema its `$ref` says it also is. */
  ref?: SchemaLocation;
  /** Its `allOf` members: what it builds on. */
  allOf: SchemaLocation[];
  /** Its `anyOf`, then its `oneOf` members: every one of them can describe the value. */
  alternatives: SchemaLocation[];
}

export class SchemaWalker {
  constructor(
    readonly resolver: RefResolver,
    private readonly options: WalkerOptions = {},
  ) {}

  /** The target of a node's own `$ref` (one step); undefined without one, or when unresolvable and skipped. */
  refTarget(location: SchemaLocation): SchemaLocation | undefined {
    const ref = location.node['$ref'];
    if (typeof ref !== 'string') return undefined;
    if (this.options.unresolved !== 'skip') return this.resolver.resolve(ref, location.document);
    try {
      return this.resolver.resolve(ref, location.document);
    } catch {
      return undefined;
    }
  }

  /** Follows a node's chain of `$ref`s to the schema it ends at. */
  follow(location: SchemaLocation): SchemaLocation {
    if (this.options.unresolved !== 'skip') return this.resolver.follow(location);
    const seen = new Set<string>();
    let current = location;
    for (
      let next = this.refTarget(current);
      next !== undefined && !seen.has(locationKey(next));
      next = this.refTarget(current)
    ) {
      seen.add(locationKey(current));
      current = next;
    }
    return current;
  }

  /** The members of an `allOf`, `anyOf` or `oneOf`. */
  subschemas(location: SchemaLocation, keyword: Composition): SchemaLocation[] {
    const list = location.node[keyword];
    if (!Array.isArray(list)) return [];
    return list.flatMap((member, index) =>
      isJsonObject(member) ? [this.child(location, [keyword, String(index)], member)] : [],
    );
  }

  /** A node's `anyOf` and `oneOf` members. */
  alternatives(location: SchemaLocation): SchemaLocation[] {
    return [...this.subschemas(location, 'anyOf'), ...this.subschemas(location, 'oneOf')];
  }

  /**
   * The JSON types a schema admits: what all of `type`, `const`, `enum`, its `$ref` target, each of `anyOf` and
   * `oneOf` (a union of its members) and every `allOf` member allow together. A schema none of them constrains is
   * an object when it has `properties`, `additionalProperties`, `patternProperties` or `required`, an array when it
   * has `items`; otherwise `any`. A schema reached again through its own `$ref`s constrains nothing more.
   */
  jsonTypes(location: SchemaLocation, visiting: ReadonlySet<string> = new Set()): JsonTypes {
    const key = locationKey(location);
    if (visiting.has(key)) return 'any';
    const inner = new Set(visiting).add(key);
    const node = location.node;
    let types: JsonTypes = 'any';
    const declared = node['type'];
    if (typeof declared === 'string') types = new Set([declared as JsonType]);
    else if (Array.isArray(declared))
      types = new Set(declared.filter((t): t is string => typeof t === 'string') as JsonType[]);
    if (node['const'] !== undefined) types = intersect(types, new Set([jsonTypeOf(node['const'])]));
    if (Array.isArray(node['enum'])) types = intersect(types, new Set(node['enum'].map(jsonTypeOf)));
    const target = this.refTarget(location);
    if (target) types = intersect(types, this.jsonTypes(target, inner));
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const members = this.subschemas(location, keyword);
      if (members.length > 0) types = intersect(types, unite(members.map((member) => this.jsonTypes(member, inner))));
    }
    for (const member of this.subschemas(location, 'allOf')) types = intersect(types, this.jsonTypes(member, inner));
    if (types !== 'any') return types;
    if (
      objectKeywords.some((keyword) => isJsonObject(node[keyword]) || typeof node[keyword] === 'boolean') ||
      Array.isArray(node['required'])
    ) {
      return new Set(['object']);
    }
    if (node['items'] !== undefined || Array.isArray(node['prefixItems'])) return new Set(['array']);
    return 'any';
  }

  /** The schema of the items of an array schema (after its `$ref`s): its `items` when that is one schema. */
  itemsOf(location: SchemaLocation): SchemaLocation | undefined {
    const target = this.follow(location);
    const items = target.node['items'];
    return isJsonObject(items) ? this.child(target, ['items'], items) : undefined;
  }

  /** What describes each value a property holds: for an array (null aside) its items, otherwise its own schema. */
  elementOf(location: SchemaLocation, types: JsonTypes = this.jsonTypes(location)): SchemaLocation | undefined {
    return onlyArrays(types) ? this.itemsOf(location) : location;
  }

  /**
   * The object a property's value is described by (after `$ref`s): its own schema when it admits objects, its items
   * when it is an array of objects; undefined for scalars, arrays of scalars and unconstrained values.
   */
  objectOf(location: SchemaLocation): SchemaLocation | undefined {
    const element = this.elementOf(location);
    if (element === undefined) return undefined;
    const types = this.jsonTypes(element);
    return types !== 'any' && types.has('object') ? this.follow(element) : undefined;
  }

  /** The parts of an object schema that give it properties (see ObjectParts). */
  objectParts(location: SchemaLocation): ObjectParts {
    const properties = location.node['properties'];
    const parts: ObjectParts = {
      properties: isJsonObject(properties)
        ? Object.entries(properties).flatMap(([key, schema]): [string, SchemaLocation][] =>
            isJsonObject(schema) ? [[key, this.child(location, ['properties', key], schema)]] : [],
          )
        : [],
      allOf: this.subschemas(location, 'allOf'),
      alternatives: this.alternatives(location),
    };
    const ref = this.refTarget(location);
    if (ref) parts.ref = ref;
    return parts;
  }

  /**
   * Every property schema that can describe a key of the object, by key: its own, then those of what it builds on
   * and of each alternative, each schema visited once.
   */
  members(
    location: SchemaLocation,
    result = new Map<string, SchemaLocation[]>(),
    seen = new Set<string>(),
  ): Map<string, SchemaLocation[]> {
    const key = locationKey(location);
    if (seen.has(key)) return result;
    seen.add(key);
    const parts = this.objectParts(location);
    for (const [name, schema] of parts.properties) {
      const list = result.get(name) ?? [];
      if (!list.some((known) => locationKey(known) === locationKey(schema))) list.push(schema);
      result.set(name, list);
    }
    for (const part of [...(parts.ref ? [parts.ref] : []), ...parts.allOf, ...parts.alternatives])
      this.members(part, result, seen);
    return result;
  }

  private child(location: SchemaLocation, tokens: string[], node: JsonObject): SchemaLocation {
    return { document: location.document, pointer: joinPointer(location.pointer, ...tokens), node };
  }
}

/** Whether every value of these types (null aside) is an array. */
function onlyArrays(types: JsonTypes): boolean {
  if (types === 'any') return false;
  const nonNull = [...types].filter((type) => type !== 'null');
  return nonNull.length > 0 && nonNull.every((type) => type === 'array');
}
