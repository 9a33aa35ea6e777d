// Compiles the effective annotated schema into lifting plans: for every definition, which JSON key becomes which
// predicate and what its value becomes (a typed literal, an rdf:JSON literal, a node with its own plan, a list).
// The fast lifter and the lowerer walk these plans; the schema is read once, here.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { SchemaIndex, SchemaLocation } from '../schema/index.js';
import { ns } from '../rdf/vocabulary.js';

export type ValuePlan =
  | { kind: 'literal'; datatype: string }
  | { kind: 'json' }
  | { kind: 'node'; node: NodePlan }
  | { kind: 'list'; item: ValuePlan }
  /** Not annotated: lifted by the generic rules (objects as nodes, arrays as lists, scalars by JSON type). */
  | { kind: 'any' };

export interface PropertyPlan {
  key: string;
  predicate: string;
  value: ValuePlan;
}

export interface NodePlan {
  /** Where the plan comes from (for messages and debugging). */
  pointer: string;
  properties: Map<string, PropertyPlan>;
  byPredicate: Map<string, PropertyPlan>;
  /** Classes the node gets whatever its content (class-typed properties, a referenced definition). */
  classes: string[];
  /** anyOf alternatives, each with what identifies it (its consts, its required keys) and the class it gives. */
  alternatives: { consts: Record<string, JsonValue>; required: string[]; classes: string[] }[];
}

const anyValue: ValuePlan = { kind: 'any' };

/** What a compiler holds: the schema's prefixes and class terms, and the node plans compiled so far (by location). */
interface CompilerState {
  prefixes: Record<string, string>;
  classTerms: [string, string][];
  nodePlans: [string, NodePlan][];
}

export class PlanCompiler {
  private readonly prefixes: Record<string, string>;
  private readonly classTerms = new Map<string, string>();
  private readonly cache = new Map<string, NodePlan>();

  /** `restored`: the state of a compiler over the same schema (from a snapshot, see plan-snapshot.ts). */
  constructor(
    private readonly index: SchemaIndex,
    restored?: CompilerState,
  ) {
    if (restored) {
      this.prefixes = restored.prefixes;
      for (const [name, iri] of restored.classTerms) this.classTerms.set(name, iri);
      for (const [key, plan] of restored.nodePlans) this.cache.set(key, plan);
      return;
    }
    this.prefixes = index.prefixes;
    const extra = index.schema['x-jsonld-extra-terms'];
    if (isJsonObject(extra)) {
      for (const [name, term] of Object.entries(extra)) {
        const id = typeof term === 'string' ? term : isJsonObject(term) ? term['x-jsonld-id'] : undefined;
        if (typeof id === 'string') this.classTerms.set(name, this.expand(id));
      }
    }
  }

  state(): CompilerState {
    return { prefixes: this.prefixes, classTerms: [...this.classTerms], nodePlans: [...this.cache] };
  }

  /** Expands a compact IRI with the schema's prefixes; absolute IRIs and keywords pass unchanged. */
  expand(iri: string): string {
    const colon = iri.indexOf(':');
    if (colon <= 0 || iri.startsWith('@')) return iri;
    const prefix = iri.slice(0, colon);
    const expansion = this.prefixes[prefix];
    return expansion !== undefined && !iri.slice(colon + 1).startsWith('//') ? expansion + iri.slice(colon + 1) : iri;
  }

  /** Every IRI the compiled plans can write: predicates, datatypes and classes (for checking them once). */
  schemaIris(): string[] {
    const iris = new Set<string>(this.classTerms.values());
    const visit = (value: ValuePlan) => {
      if (value.kind === 'literal') iris.add(value.datatype);
      else if (value.kind === 'list') visit(value.item);
      else if (value.kind === 'node') for (const c of value.node.classes) iris.add(c);
    };
    for (const plan of this.cache.values()) {
      for (const c of plan.classes) iris.add(c);
      for (const alternative of plan.alternatives) for (const c of alternative.classes) iris.add(c);
      for (const property of plan.properties.values()) {
        iris.add(property.predicate);
        visit(property.value);
      }
    }
    return [...iris];
  }

  /** The class IRI of a definition: its extra term when the schema declares one, else mcp:<Name>. */
  classOf(definition: string): string {
    return this.classTerms.get(definition) ?? ns.mcp + definition;
  }

  /** The plan of the object described by the schema node at `location` (own properties, allOf, $ref, anyOf). */
  nodePlan(location: SchemaLocation): NodePlan {
    const key = `${location.document}#${location.pointer}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const plan: NodePlan = {
      pointer: location.pointer,
      properties: new Map(),
      byPredicate: new Map(),
      classes: [],
      alternatives: [],
    };
    this.cache.set(key, plan); // before filling it: recursive schemas refer to the same plan
    this.collect(location, plan, new Set());
    for (const property of plan.properties.values()) plan.byPredicate.set(property.predicate, property);
    return plan;
  }

  private collect(location: SchemaLocation, plan: NodePlan, seen: Set<string>): void {
    const id = `${location.document}#${location.pointer}`;
    if (seen.has(id)) return;
    seen.add(id);
    const { node } = location;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      const target = this.index.resolver.resolve(ref, location.document);
      // The JSON-RPC envelope (#Request, #Response …) is handled by the message plan, not as members.
      if (isEnvelope(target)) return;
      const definition = /^\/definitions\/([^/]+)$/.exec(target.pointer);
      if (definition && !plan.classes.includes(this.classOf(definition[1]!)) && !isUnion(target.node))
        plan.classes.push(this.classOf(definition[1]!));
      this.collect(target, plan, seen);
    }
    const allOf = node['allOf'];
    if (Array.isArray(allOf)) {
      allOf.forEach((member, i) => {
        if (isJsonObject(member))
          this.collect(
            { document: location.document, pointer: `${location.pointer}/allOf/${i}`, node: member },
            plan,
            seen,
          );
      });
    }
    const properties = node['properties'];
    if (isJsonObject(properties)) {
      for (const [name, schema] of Object.entries(properties)) {
        if (!isJsonObject(schema)) continue;
        const property = this.propertyPlan(name, {
          document: location.document,
          pointer: `${location.pointer}/properties/${escape(name)}`,
          node: schema,
        });
        if (property) plan.properties.set(name, property);
      }
    }
    const anyOf = node['anyOf'];
    if (Array.isArray(anyOf)) {
      anyOf.forEach((member, i) => {
        if (!isJsonObject(member)) return;
        // An array alternative (2025-11-25's one content block or a list of them) is described by its items.
        const memberLocation = objectOrItems({
          document: location.document,
          pointer: `${location.pointer}/anyOf/${i}`,
          node: member,
        });
        const alternative: NodePlan = {
          pointer: '',
          properties: new Map(),
          byPredicate: new Map(),
          classes: [],
          alternatives: [],
        };
        this.collect(memberLocation, alternative, new Set(seen));
        for (const [name, property] of alternative.properties)
          if (!plan.properties.has(name)) plan.properties.set(name, property);
        plan.alternatives.push({ ...identifiersOf(this.index, memberLocation), classes: alternative.classes });
      });
    }
  }

  /** The plan of one annotated property; unannotated properties are left to the generic rules. */
  propertyPlan(key: string, location: SchemaLocation): PropertyPlan | undefined {
    const { node } = location;
    const id = node['x-jsonld-id'];
    if (typeof id !== 'string') return undefined;
    const type = typeof node['x-jsonld-type'] === 'string' ? this.expand(node['x-jsonld-type']) : undefined;
    const container = node['x-jsonld-container'];
    let value: ValuePlan;
    if (type === '@json') value = { kind: 'json' };
    else if (container === '@list') {
      const items = node['items'];
      const itemLocation: SchemaLocation | undefined = isJsonObject(items)
        ? { document: location.document, pointer: `${location.pointer}/items`, node: items }
        : undefined;
      value = { kind: 'list', item: this.valuePlan(type, itemLocation) };
    } else value = this.valuePlan(type, location);
    return { key, predicate: this.expand(id), value };
  }

  /** What one value becomes, given the annotated type and the schema describing the value. */
  private valuePlan(type: string | undefined, location: SchemaLocation | undefined): ValuePlan {
    if (location !== undefined && describesObject(this.index, location)) {
      const node = this.nodePlan(location);
      if (
        type !== undefined &&
        type !== '@id' &&
        !type.startsWith('@') &&
        !isDatatype(type) &&
        !node.classes.includes(type)
      ) {
        // A class-typed property: the class types the node (JSON-LD alone cannot do it; the lifter does).
        return { kind: 'node', node: { ...node, classes: [type, ...node.classes] } };
      }
      return { kind: 'node', node };
    }
    if (type === undefined || type === '@id' || type === '@vocab') return anyValue;
    return { kind: 'literal', datatype: type };
  }
}

/** The JSON-RPC message anchors (#Request, #Notification, #Response …) that MCP definitions build on. */
function isEnvelope(location: SchemaLocation): boolean {
  return location.document === 'json-rpc' && typeof location.node['$anchor'] === 'string';
}

function escape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isUnion(node: JsonObject): boolean {
  return Array.isArray(node['anyOf']) && node['properties'] === undefined;
}

/** XSD datatypes and rdf:JSON are datatypes; so are custom datatypes of the schema used on strings (see lift). */
function isDatatype(iri: string): boolean {
  return iri.startsWith(ns.xsd) || iri === `${ns.rdf}JSON`;
}

/** Whether the schema at `location` describes a JSON object (own properties, a referenced object, anyOf of objects). */
function describesObject(index: SchemaIndex, location: SchemaLocation, depth = 0): boolean {
  if (depth > 16) return false;
  const { node } = location;
  if (node['type'] === 'object' || isJsonObject(node['properties'])) return true;
  if (typeof node['$ref'] === 'string') {
    const target = index.resolver.resolve(node['$ref'], location.document);
    if (isEnvelope(target)) return false;
    return describesObject(index, target, depth + 1);
  }
  for (const keyword of ['anyOf', 'allOf'] as const) {
    const members = node[keyword];
    if (Array.isArray(members) && members.length > 0) {
      // anyOf may also allow an array of such objects (one content block, or a list of them): itemPlan lifts each.
      const member = (m: JsonValue, i: number) => ({
        document: location.document,
        pointer: `${location.pointer}/${keyword}/${i}`,
        node: m as JsonObject,
      });
      return members.every(
        (m, i) =>
          isJsonObject(m) &&
          describesObject(index, keyword === 'anyOf' ? objectOrItems(member(m, i)) : member(m, i), depth + 1),
      );
    }
  }
  return false;
}

/** An array schema's items (when it is an array of one kind of item), else the schema itself. */
function objectOrItems(location: SchemaLocation): SchemaLocation {
  const { node } = location;
  const items = node['items'];
  if (node['type'] !== 'array' || !isJsonObject(items)) return location;
  return { document: location.document, pointer: `${location.pointer}/items`, node: items };
}

/** What tells an alternative apart: the `const` values of its top-level properties (ContentBlock's `type`) and its
 * required keys (TextResourceContents' `text` against BlobResourceContents' `blob`). */
function identifiersOf(
  index: SchemaIndex,
  location: SchemaLocation,
): { consts: Record<string, JsonValue>; required: string[] } {
  const target = typeof location.node['$ref'] === 'string' ? index.resolver.follow(location) : location;
  const consts: Record<string, JsonValue> = {};
  const properties = target.node['properties'];
  if (isJsonObject(properties)) {
    for (const [name, schema] of Object.entries(properties)) {
      if (isJsonObject(schema) && schema['const'] !== undefined) consts[name] = schema['const'];
    }
  }
  const required = Array.isArray(target.node['required'])
    ? target.node['required'].filter((key): key is string => typeof key === 'string')
    : [];
  return { consts, required };
}

/**
 * The plan of each item of an array found where `plan` applies (lists, or arrays where the schema expected one value).
 */
export function itemPlan(plan: ValuePlan): ValuePlan {
  if (plan.kind === 'list') return plan.item;
  if (plan.kind === 'node' || plan.kind === 'literal') return plan;
  return { kind: 'any' };
}

/** The classes an object gets under `plan`: the plan's own, plus those of the anyOf alternative its consts match. */
export function classesFor(plan: NodePlan, value: JsonObject): readonly string[] {
  // Most plans have no alternatives: their classes as they are, with no copy. Every lifted object asks, so the
  // alternatives are tried without making an array or an entry list for them.
  if (plan.alternatives.length === 0) return plan.classes;
  let fitting: NodePlan['alternatives'][number] | undefined;
  for (const alternative of plan.alternatives) {
    if (!fits(alternative, value)) continue;
    // A class only when just one alternative fits.
    if (fitting !== undefined) return plan.classes;
    fitting = alternative;
  }
  if (fitting === undefined || fitting.classes.every((c) => plan.classes.includes(c))) return plan.classes;
  const classes = [...plan.classes];
  for (const c of fitting.classes) if (!classes.includes(c)) classes.push(c);
  return classes;
}

/**
 * Whether `value` is of `alternative`: it carries the alternative's required keys, and has its consts (an optional
 * const may be absent: 2025-11-25's form elicitation need not say mode "form"). An alternative with neither
 * identifies nothing.
 */
function fits(alternative: NodePlan['alternatives'][number], value: JsonObject): boolean {
  let identified = alternative.required.length > 0;
  for (const key in alternative.consts) {
    identified = true;
    if (key in value ? value[key] !== alternative.consts[key] : alternative.required.includes(key)) return false;
  }
  if (!identified) return false;
  for (const key of alternative.required) if (!(key in value)) return false;
  return true;
}

/** Per message definition, what the lifter needs (message-plans.ts makes them, plan-snapshot.ts keeps them). */
export interface MessagePlan {
  definition: string;
  /** The MCP class of messages of this definition (e.g. mcp:CallToolRequest). */
  class: string;
  /** The plan of `params` (requests, notifications). */
  params?: PropertyPlan;
  /** The plan of the `result` object (results). */
  result?: NodePlan;
}
