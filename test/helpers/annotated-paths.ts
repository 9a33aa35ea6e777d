// The annotation-fidelity yardstick, read from the effective schema on its own (no code shared with
// src/context): every annotated property path of a message definition, and a check that an RDF graph made
// from an instance of it carries, along each path, the annotated predicate with the annotated datatype (a node
// for `@id` and objects, an `rdf:JSON` literal for `@json`, an `rdf:List` for `@list`). Paths stop at `@json`.
import { isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../../src/core/json.js';
import { documentUris, type SchemaIndex, type SchemaLocation } from '../../src/schema/index.js';
import type { Quad, RdfTerm } from './jsonld.js';
import { messageKind } from './message-instances.js';

interface Annotation {
  /** Expanded predicate IRI. */
  predicate: string;
  /** Expanded `x-jsonld-type` (a datatype, a class, `@id`, `@json`…), if any. */
  type?: string;
  container?: string;
  /** Where it is annotated, `<document URI>#<pointer>`. */
  source: string;
}

type PathStep =
  | { kind: 'key'; key: string; annotation: Annotation }
  | { kind: 'alternative'; label: string; location: SchemaLocation };

interface AnnotatedPath {
  definition: string;
  /** e.g. `/result/content[]<ImageContent>/data`. */
  label: string;
  steps: PathStep[];
}

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDF_JSON = `${RDF}JSON`;

function expand(value: string, prefixes: Record<string, string>): string {
  const colon = value.indexOf(':');
  if (colon <= 0 || value.startsWith('@')) return value;
  const prefix = value.slice(0, colon);
  return prefix in prefixes && !value.slice(colon + 1).startsWith('//')
    ? prefixes[prefix] + value.slice(colon + 1)
    : value;
}

interface Branch {
  /** Alternatives taken to get this set of properties. */
  alternatives: PathStep[];
  /** key → annotated property schema (allOf members first, own properties override). */
  properties: Map<string, SchemaLocation>;
}

export class AnnotatedPaths {
  private readonly prefixes: Record<string, string>;

  constructor(private readonly index: SchemaIndex) {
    this.prefixes = index.prefixes;
  }

  private follow(location: SchemaLocation): SchemaLocation {
    return this.index.resolver.follow(location);
  }

  private sub(location: SchemaLocation, tokens: string[], node: JsonObject): SchemaLocation {
    return { document: location.document, pointer: joinPointer(location.pointer, ...tokens), node };
  }

  private annotation(location: SchemaLocation): Annotation | undefined {
    const node = location.node;
    if (typeof node['x-jsonld-id'] !== 'string') return undefined;
    const result: Annotation = {
      predicate: expand(node['x-jsonld-id'], this.prefixes),
      source: `${documentUris[location.document]}#${location.pointer}`,
    };
    if (typeof node['x-jsonld-type'] === 'string') result.type = expand(node['x-jsonld-type'], this.prefixes);
    if (typeof node['x-jsonld-container'] === 'string') result.container = node['x-jsonld-container'];
    return result;
  }

  /** The property sets an object schema admits, one per combination of alternatives. */
  private branches(location: SchemaLocation, skipDocument?: string, depth = 0): Branch[] {
    if (depth > 32) throw new Error(`schema nests deeper than 32 levels at ${location.pointer}`);
    const target = this.follow(location);
    const node = target.node;
    let branches: Branch[] = [{ alternatives: [], properties: new Map() }];
    const combine = (parts: Branch[]) => {
      const next: Branch[] = [];
      for (const a of branches)
        for (const b of parts)
          next.push({
            alternatives: [...a.alternatives, ...b.alternatives],
            properties: new Map([...a.properties, ...b.properties]),
          });
      branches = next;
    };
    const allOf = Array.isArray(node['allOf']) ? node['allOf'] : [];
    allOf.forEach((member, i) => {
      if (!isJsonObject(member)) return;
      const memberLocation = this.sub(target, ['allOf', String(i)], member);
      if (skipDocument !== undefined && this.follow(memberLocation).document === skipDocument) return;
      combine(this.branches(memberLocation, undefined, depth + 1));
    });
    const alternatives: Branch[] = [];
    for (const keyword of ['anyOf', 'oneOf']) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      list.forEach((member, i) => {
        if (!isJsonObject(member)) return;
        const memberLocation = this.sub(target, [keyword, String(i)], member);
        const ref = member['$ref'];
        const label =
          typeof ref === 'string'
            ? ref.slice(Math.max(ref.lastIndexOf('/'), ref.lastIndexOf('#')) + 1)
            : Array.isArray(member['required'])
              ? `{${member['required'].join(',')}}`
              : `#${i}`;
        for (const branch of this.branches(memberLocation, undefined, depth + 1)) {
          alternatives.push({
            alternatives: [{ kind: 'alternative', label, location: memberLocation }, ...branch.alternatives],
            properties: branch.properties,
          });
        }
      });
    }
    if (alternatives.length > 0) combine(alternatives);
    const properties = node['properties'];
    if (isJsonObject(properties)) {
      const own = new Map<string, SchemaLocation>();
      for (const [key, schema] of Object.entries(properties)) {
        if (isJsonObject(schema) && typeof schema['x-jsonld-id'] === 'string')
          own.set(key, this.sub(target, ['properties', key], schema));
      }
      combine([{ alternatives: [], properties: own }]);
    }
    return branches;
  }

  /** Where the object(s) a property holds are described: itself, or its `items`; undefined for scalars. */
  private objectSchema(location: SchemaLocation): SchemaLocation | undefined {
    const target = this.follow(location);
    const node = target.node;
    const isObject = (n: JsonObject): boolean => {
      const type = n['type'];
      if (type === 'object' || (Array.isArray(type) && type.includes('object'))) return true;
      if ('properties' in n || 'allOf' in n) return true;
      for (const keyword of ['anyOf', 'oneOf']) {
        const list = n[keyword];
        if (
          Array.isArray(list) &&
          list.some((m) => isJsonObject(m) && isObject(this.follow({ ...target, node: m }).node))
        )
          return true;
      }
      return false;
    };
    if (isObject(node)) return target;
    const items = Array.isArray(node['items']) ? node['items'][0] : node['items'];
    if ((node['type'] === 'array' || 'items' in node) && isJsonObject(items)) {
      const itemLocation = this.follow(
        this.sub(target, Array.isArray(node['items']) ? ['items', '0'] : ['items'], items),
      );
      if (isObject(itemLocation.node)) return itemLocation;
    }
    return undefined;
  }

  private walk(
    location: SchemaLocation,
    prefix: PathStep[],
    label: string,
    into: AnnotatedPath[],
    definition: string,
    stack: string[],
    skipDocument?: string,
  ): void {
    const target = this.follow(location);
    const id = `${target.document}#${target.pointer}`;
    if (stack.includes(id)) return;
    for (const branch of this.branches(location, skipDocument)) {
      const branchLabel =
        label + branch.alternatives.map((s) => (s.kind === 'alternative' ? `<${s.label}>` : '')).join('');
      for (const [key, propertyLocation] of [...branch.properties].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        let annotation = this.annotation(propertyLocation)!;
        let valueSchema = annotation.type === '@json' ? undefined : this.objectSchema(propertyLocation);
        let skip: string | undefined;
        // The MCP convention: a result definition describes the `result` object of a JSON-RPC response.
        if (prefix.length === 0 && key === 'result' && this.resultDefinition !== undefined) {
          annotation = { predicate: annotation.predicate, type: '@id', source: annotation.source };
          valueSchema = this.resultDefinition;
          skip = 'json-rpc';
        }
        const steps: PathStep[] = [...prefix, ...branch.alternatives, { kind: 'key', key, annotation }];
        const isArray = this.follow(propertyLocation).node['type'] === 'array';
        const pathLabel = `${branchLabel}/${key}${isArray ? '[]' : ''}`;
        into.push({ definition, label: pathLabel, steps });
        if (valueSchema !== undefined) this.walk(valueSchema, steps, pathLabel, into, definition, [...stack, id], skip);
      }
    }
  }

  private resultDefinition: SchemaLocation | undefined;

  /** Every annotated property path of message definition `name` (one per alternative taken on the way). */
  of(name: string): AnnotatedPath[] {
    const definition = this.index.definition(name);
    const paths: AnnotatedPath[] = [];
    if (messageKind(this.index, name) === 'result') {
      const envelope = this.envelope(definition);
      if (envelope === undefined) throw new Error(`${name} does not build on a JSON-RPC response`);
      this.resultDefinition = definition;
      try {
        this.walk(envelope, [], '', paths, name, []);
      } finally {
        this.resultDefinition = undefined;
      }
    } else {
      this.walk(definition, [], '', paths, name, []);
    }
    return paths;
  }

  private envelope(location: SchemaLocation, depth = 0): SchemaLocation | undefined {
    const target = this.follow(location);
    if (target.document === 'json-rpc') return target;
    const allOf = target.node['allOf'];
    if (depth > 16 || !Array.isArray(allOf)) return undefined;
    for (const [i, member] of allOf.entries()) {
      if (!isJsonObject(member)) continue;
      const found = this.envelope(this.sub(target, ['allOf', String(i)], member), depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  /** Whether `value` is admitted by the schema at `location` (the keywords that tell alternatives apart). */
  matches(value: JsonValue, location: SchemaLocation, depth = 0): boolean {
    if (depth > 32) return true;
    const target = this.follow(location);
    const node = target.node;
    if ('const' in node && JSON.stringify(node['const']) !== JSON.stringify(value)) return false;
    if (Array.isArray(node['enum']) && !node['enum'].some((e) => JSON.stringify(e) === JSON.stringify(value)))
      return false;
    const declared = node['type'];
    const types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared : [];
    if (types.length > 0) {
      const actual =
        value === null
          ? 'null'
          : Array.isArray(value)
            ? 'array'
            : typeof value === 'number'
              ? Number.isInteger(value)
                ? 'integer'
                : 'number'
              : typeof value;
      if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) return false;
    }
    if (Array.isArray(node['required'])) {
      if (!isJsonObject(value)) return false;
      if (!node['required'].every((k) => typeof k === 'string' && k in value)) return false;
    }
    const properties = node['properties'];
    if (isJsonObject(properties) && isJsonObject(value)) {
      for (const [key, schema] of Object.entries(properties)) {
        if (
          key in value &&
          isJsonObject(schema) &&
          !this.matches(value[key]!, this.sub(target, ['properties', key], schema), depth + 1)
        )
          return false;
      }
    }
    const allOf = node['allOf'];
    if (
      Array.isArray(allOf) &&
      !allOf.every(
        (m, i) => !isJsonObject(m) || this.matches(value, this.sub(target, ['allOf', String(i)], m), depth + 1),
      )
    )
      return false;
    for (const keyword of ['anyOf', 'oneOf']) {
      const list = node[keyword];
      if (
        Array.isArray(list) &&
        !list.some(
          (m, i) => isJsonObject(m) && this.matches(value, this.sub(target, [keyword, String(i)], m), depth + 1),
        )
      )
        return false;
    }
    return true;
  }
}

type PathOutcome = { applies: false } | { applies: true; failure?: string };

/** The subject that is no triple's object: the message node. */
function rootOf(quads: readonly Quad[]): RdfTerm {
  const objects = new Set(quads.map((q) => `${q.object.termType}:${q.object.value}`));
  const roots = new Map<string, RdfTerm>();
  for (const quad of quads)
    if (!objects.has(`${quad.subject.termType}:${quad.subject.value}`))
      roots.set(`${quad.subject.termType}:${quad.subject.value}`, quad.subject);
  if (roots.size !== 1) throw new Error(`expected one root node, found ${roots.size}`);
  return [...roots.values()][0]!;
}

function objectsOf(quads: readonly Quad[], subject: RdfTerm, predicate: string): RdfTerm[] {
  return quads
    .filter(
      (q) =>
        q.subject.termType === subject.termType && q.subject.value === subject.value && q.predicate.value === predicate,
    )
    .map((q) => q.object);
}

function listItems(quads: readonly Quad[], head: RdfTerm): RdfTerm[] | undefined {
  const items: RdfTerm[] = [];
  let current = head;
  for (let guard = 0; guard < 10_000; guard++) {
    if (current.termType === 'NamedNode' && current.value === `${RDF}nil`) return items;
    const first = objectsOf(quads, current, `${RDF}first`);
    const rest = objectsOf(quads, current, `${RDF}rest`);
    if (first.length !== 1 || rest.length !== 1) return undefined;
    items.push(first[0]!);
    current = rest[0]!;
  }
  return undefined;
}

function show(term: RdfTerm): string {
  if (term.termType === 'Literal') return `"${term.value}"^^<${term.datatype?.value ?? ''}>`;
  return term.termType === 'BlankNode' ? `_:${term.value}` : `<${term.value}>`;
}

const isNode = (term: RdfTerm) => term.termType === 'NamedNode' || term.termType === 'BlankNode';

/** One value of an annotated property against its RDF object. */
function checkItem(value: JsonValue, object: RdfTerm, annotation: Annotation): string | undefined {
  if (isJsonObject(value)) return isNode(object) ? undefined : `an object should be a node, got ${show(object)}`;
  if (annotation.type === '@id' || annotation.type === '@vocab')
    return object.termType === 'NamedNode' ? undefined : `expected an IRI, got ${show(object)}`;
  if (object.termType !== 'Literal') return `expected a literal, got ${show(object)}`;
  if (annotation.type !== undefined && object.datatype?.value !== annotation.type)
    return `expected datatype <${annotation.type}>, got ${show(object)}`;
  return undefined;
}

/**
 * Follows `path` through `message` and the graph `quads` made from it: whether the path applies to this
 * instance (it has a value there, on the alternatives the path takes) and, if so, what is wrong, if anything.
 */
export function checkPath(
  paths: AnnotatedPaths,
  path: AnnotatedPath,
  message: JsonObject,
  quads: readonly Quad[],
): PathOutcome {
  let current: Array<{ json: JsonValue; node: RdfTerm }> = [{ json: message, node: rootOf(quads) }];
  for (const [index, step] of path.steps.entries()) {
    const last = index === path.steps.length - 1;
    if (step.kind === 'alternative') {
      current = current.filter((c) => paths.matches(c.json, step.location));
      if (current.length === 0) return { applies: false };
      continue;
    }
    const next: Array<{ json: JsonValue; node: RdfTerm }> = [];
    let applies = false;
    for (const { json, node } of current) {
      if (!isJsonObject(json) || !(step.key in json) || json[step.key] === null) continue;
      applies = true;
      const value = json[step.key]!;
      const { annotation } = step;
      const objects = objectsOf(quads, node, annotation.predicate);
      const where = `${path.label} (${annotation.source})`;
      if (objects.length === 0) return { applies: true, failure: `${where}: no <${annotation.predicate}> triple` };
      if (annotation.type === '@json') {
        if (!last) return { applies: true, failure: `${where}: a path continues below @json` };
        const bad = objects.find((o) => o.termType !== 'Literal' || o.datatype?.value !== RDF_JSON);
        if (bad || objects.length !== 1)
          return {
            applies: true,
            failure: `${where}: expected one rdf:JSON literal, got ${objects.map(show).join(', ')}`,
          };
        continue;
      }
      const values = Array.isArray(value) ? value : [value];
      let items: RdfTerm[];
      if (annotation.container === '@list') {
        if (objects.length !== 1)
          return { applies: true, failure: `${where}: expected one rdf:List, got ${objects.length} objects` };
        const list = listItems(quads, objects[0]!);
        if (list === undefined) return { applies: true, failure: `${where}: ${show(objects[0]!)} is not an rdf:List` };
        items = list;
      } else {
        items = objects;
      }
      if (items.length !== values.length)
        return { applies: true, failure: `${where}: ${values.length} value(s) but ${items.length} RDF object(s)` };
      for (const [i, item] of values.entries()) {
        // Without @list, RDF keeps no order: each value must have a fitting object.
        const candidates = annotation.container === '@list' ? [items[i]!] : items;
        const problems = candidates.map((object) => checkItem(item, object, annotation));
        if (problems.every((p) => p !== undefined)) return { applies: true, failure: `${where}: ${problems[0]}` };
        if (!last) {
          const fitting = candidates.filter((_, k) => problems[k] === undefined);
          if (!isNode(fitting[0]!)) return { applies: true, failure: `${where}: the path continues below a literal` };
          next.push({ json: item, node: fitting[0]! });
        }
      }
    }
    if (!applies) return { applies: false };
    current = next;
  }
  return { applies: true };
}
