// The effective schema as the ontology and the shapes describe it: for every definition, the objects the lifter
// turns into nodes (definitions, inline objects such as `params`, the `result` object of a result definition) with
// their properties — predicate, requiredness, list or not, and what the value becomes, with the JSON Schema
// constraints (const, enum, JSON types, minimum, maximum) that apply to it. Value kinds come from the lifter's own
// plans (src/lift/plan.ts), so the model describes the graph the lifter writes; nothing here writes RDF.
// Longer than 400 lines on purpose: one walk over every definition, whose steps share the walker's state (the objects
// met, their properties and constraints).
import { isJsonObject, joinPointer, type JsonValue } from '../core/json.js';
import {
  SchemaWalker,
  definitionNameAt,
  definitionPointer,
  documentUris,
  type SchemaIndex,
  type SchemaLocation,
} from '../schema/index.js';
import { PlanCompiler, type NodePlan, type ValuePlan } from '../lift/plan.js';
import { annotatedLiteral, naturalLiteral, type LiteralForm, extensionPredicate, rdf } from '../rdf/index.js';
import { localName } from '../context/iris.js';
import { jsonRpcEnvelope, type JsonType } from '../schema/index.js';
import { envelopeClasses, jsonRpcObjectClasses, requestIdClasses, refinedEnvelopeKeys } from './json-rpc-terms.js';

/** One way a node value can be: the classes the lifter gives it, or (untyped) the object that describes it. */
export interface Alternative {
  classes: string[];
  /** Set when the lifter may leave the node untyped: inline objects, and anyOf members no const identifies. */
  object?: ObjectModel;
}

interface LiteralValue {
  kind: 'literal';
  /** The annotated datatype (the JSON-native one when the key is not annotated). */
  datatype: string;
  /** Every datatype the lifter gives a value the schema accepts: the annotated one when the value fits it. */
  datatypes: string[];
  /** `enum`, as the literals the lifter writes. */
  in?: LiteralForm[];
  /** `const`, as the literal the lifter writes. */
  hasValue?: LiteralForm;
  minInclusive?: LiteralForm;
  maxInclusive?: LiteralForm;
}

export type ValueModel =
  LiteralValue | { kind: 'json' } | { kind: 'node'; alternatives: Alternative[] } | { kind: 'any' };

export interface PropertyModel {
  key: string;
  predicate: string;
  /** False for keys the schema does not annotate (the lifter keeps them under `mldx:`). */
  annotated: boolean;
  required: boolean;
  /** A JSON array: the lifter writes an RDF list, and `value` describes its members. */
  list: boolean;
  value: ValueModel;
  description?: string;
  /** `<schema URI>#<JSON pointer>` of the (first) property schema. */
  source: string;
}

export interface ObjectModel {
  /**
   * Unique and readable: `Tool`, `CallToolRequest.params`, `ListToolsResult.result`, `ServerCapabilities.tools`; the
   * JSON-RPC envelope's are `jsonrpc.Request`, `jsonrpc.Notification`, `jsonrpc.Response`, `jsonrpc.ErrorResponse`,
   * `jsonrpc.Error`.
   */
  name: string;
  /** The definition's class (definitions and the JSON-RPC envelope); undefined for inline objects. */
  classIri?: string;
  /** For an inline object: the property and object it hangs from (it is the value of `predicate` there). */
  parent?: { predicate: string; object: ObjectModel };
  description?: string;
  properties: PropertyModel[];
}

type DefinitionKind = 'object' | 'union' | 'scalar';

export interface DefinitionModel {
  name: string;
  kind: DefinitionKind;
  /** Class IRI (objects, unions) or datatype IRI (scalars). */
  iri: string;
  description?: string;
  /** Named superclasses the schema states: `allOf`/`$ref` targets, the JSON-RPC envelope, the generic bases. */
  superClasses: string[];
  /** Unions: the classes of their `anyOf` members. */
  members?: string[];
  /** Scalars: their JSON types and enumerated values. */
  jsonTypes?: JsonType[];
  enum?: string[];
  /** Objects: what a node of the class holds (for a result definition: the message node, whose result is an object). */
  object?: ObjectModel;
  /** The MCP method of a request or notification. */
  method?: string;
  /** A request: the class of the result definition that answers it. */
  answeredBy?: string;
  /** A result definition: the requests it answers. */
  answers?: { name: string; method: string }[];
}

/** A property annotated where the lifter never reads it (inside a value kept whole as rdf:JSON). */
export interface LatentProperty {
  key: string;
  predicate: string;
  /** The value kind the annotation gives (`node` and `list`: an object property). */
  kind: 'literal' | 'json' | 'node' | 'list' | 'any';
  datatype?: string;
  source: string;
}

export interface OntologyModel {
  definitions: DefinitionModel[];
  /** Every object model: definitions, inline objects, result objects, the JSON-RPC envelope, in a stable order. */
  objects: ObjectModel[];
  /** Annotated IRIs no object model carries (the contexts define them; the lifted graph never has them). */
  latent: LatentProperty[];
}

/** Base definition of the messages built on each JSON-RPC envelope (the lifter's fallbacks for unknown methods). */
const baseDefinitions: Record<string, string> = {
  Request: 'Request',
  Notification: 'Notification',
  Response: 'Result',
};

/** One JSON value of each JSON type, to find which datatypes the lifter gives values of a datatype it annotates. */
const samples: Record<JsonType, JsonValue[]> = {
  string: ['text', '2025-06-18T00:00:00Z', 'AAAA'],
  integer: [1],
  number: [1, 0.5],
  boolean: [true],
  null: [null],
  object: [],
  array: [],
};

function isEnvelope(location: SchemaLocation): boolean {
  return location.document === 'json-rpc' && typeof location.node['$anchor'] === 'string';
}

function describedAt(location: SchemaLocation): string {
  return `${documentUris[location.document]}#${location.pointer}`;
}

function at(location: SchemaLocation, ...tokens: string[]): SchemaLocation | undefined {
  let node: JsonValue | undefined = location.node;
  for (const token of tokens)
    node = isJsonObject(node) ? node[token] : Array.isArray(node) ? node[Number(token)] : undefined;
  return isJsonObject(node)
    ? { document: location.document, pointer: joinPointer(location.pointer, ...tokens), node }
    : undefined;
}

/** Builds the model from the effective schema. */
class SchemaModelBuilder {
  private readonly compiler: PlanCompiler;
  private readonly walker: SchemaWalker;
  private readonly definitionObjects = new Map<string, ObjectModel>();
  private readonly objects: ObjectModel[] = [];
  /** The JSON-RPC envelope's annotated keys (jsonrpc, id, method, params, result, error), for message objects. */
  private readonly envelopeKeys = new Map<string, SchemaLocation>();

  constructor(private readonly index: SchemaIndex) {
    this.compiler = new PlanCompiler(index);
    this.walker = new SchemaWalker(index.resolver);
  }

  build(): OntologyModel {
    const envelope = this.envelopeObjects();
    const names = [...this.index.definitionNames].sort();
    const definitions = names.map((name) => this.definition(name));
    const objects = [...envelope, ...this.objects];
    return {
      definitions,
      objects,
      latent: this.latentProperties(new Set(objects.flatMap((o) => o.properties.map((p) => p.predicate)))),
    };
  }

  /** Every annotated property schema of both documents whose IRI no object model uses. */
  private latentProperties(used: Set<string>): LatentProperty[] {
    const latent = new Map<string, LatentProperty>();
    const visit = (location: SchemaLocation): void => {
      const own = at(location, 'properties');
      for (const key of own ? Object.keys(own.node) : []) {
        const schema = at(own!, key);
        const plan =
          schema && typeof schema.node['x-jsonld-id'] === 'string'
            ? this.compiler.propertyPlan(key, schema)
            : undefined;
        if (plan && !plan.predicate.startsWith('@') && !used.has(plan.predicate) && !latent.has(plan.predicate)) {
          const entry: LatentProperty = {
            key,
            predicate: plan.predicate,
            kind: plan.value.kind,
            source: describedAt(schema!),
          };
          if (plan.value.kind === 'literal') entry.datatype = plan.value.datatype;
          latent.set(plan.predicate, entry);
        }
      }
      for (const [key, child] of Object.entries(location.node)) {
        if (isJsonObject(child))
          visit({ document: location.document, pointer: joinPointer(location.pointer, key), node: child });
        else if (Array.isArray(child))
          child.forEach(
            (item, i) =>
              isJsonObject(item) &&
              visit({
                document: location.document,
                pointer: joinPointer(location.pointer, key, String(i)),
                node: item,
              }),
          );
      }
    };
    visit({ document: 'mcp', pointer: '', node: this.index.documents.mcp });
    visit({ document: 'json-rpc', pointer: '', node: this.index.documents['json-rpc'] });
    return [...latent.values()].sort((a, b) => (a.predicate < b.predicate ? -1 : 1));
  }

  // ---- definitions ----------------------------------------------------------------------------------------

  private definition(name: string): DefinitionModel {
    const location = this.index.definition(name);
    const node = location.node;
    const description = typeof node['description'] === 'string' ? node['description'] : undefined;
    const iri = this.compiler.classOf(name);
    const model: DefinitionModel = { name, kind: 'object', iri, superClasses: [] };
    if (description !== undefined) model.description = description;
    const message = this.index.message(name);
    if (message?.method !== undefined) model.method = message.method;
    if (message?.result !== undefined) model.answeredBy = this.compiler.classOf(message.result);
    if (message?.answers !== undefined) {
      model.answers = message.answers.map((request) => ({
        name: request,
        method: this.index.message(request)?.method ?? request,
      }));
    }

    const members = this.unionMembers(location);
    if (members !== undefined) {
      model.kind = 'union';
      model.members = members.map((member) => this.memberClass(member));
    } else if (!this.isObject(location)) {
      model.kind = 'scalar';
      const types = this.walker.jsonTypes(location);
      model.jsonTypes = types === 'any' ? [] : [...types].sort();
      if (Array.isArray(node['enum'])) model.enum = node['enum'].map(String);
    } else {
      model.object = this.definitionObject(name);
    }
    model.superClasses = this.superClasses(name, location, model.kind);
    return model;
  }

  private isObject(location: SchemaLocation): boolean {
    const types = this.walker.jsonTypes(location);
    return types !== 'any' && types.has('object');
  }

  /** The class of a union member: a definition's class, or the JSON-RPC class of an envelope anchor. */
  private memberClass(member: SchemaLocation): string {
    if (isEnvelope(member)) return envelopeClasses[String(member.node['$anchor'])]!;
    const name = definitionName(member);
    if (name === undefined) throw new Error(`union member at ${describedAt(member)} is not a definition`);
    return this.compiler.classOf(name);
  }

  /** `allOf`/`$ref` targets, the JSON-RPC envelope the definition builds on, and the generic base of its kind. */
  private superClasses(name: string, location: SchemaLocation, kind: DefinitionKind): string[] {
    if (kind === 'scalar') return [];
    const supers: string[] = [];
    const direct = [location, ...this.walker.subschemas(location, 'allOf')];
    for (const member of direct) {
      const ref = member.node['$ref'];
      if (typeof ref !== 'string') continue;
      const target = this.index.resolver.resolve(ref, member.document);
      if (isEnvelope(target)) supers.push(envelopeClasses[String(target.node['$anchor'])]!);
      else {
        const targetName = definitionName(target);
        if (targetName !== undefined && targetName !== name) supers.push(this.compiler.classOf(targetName));
      }
    }
    const envelope = jsonRpcEnvelope(this.index.resolver, location);
    const base = envelope === undefined ? undefined : baseDefinitions[String(envelope.node['$anchor'])];
    if (base !== undefined && base !== name) supers.push(this.compiler.classOf(base));
    return [...new Set(supers)];
  }

  /** The object model of an object definition; for a result definition, the message node holding the result. */
  private definitionObject(name: string): ObjectModel {
    const cached = this.definitionObjects.get(name);
    if (cached) return cached;
    const location = this.index.definition(name);
    const description = typeof location.node['description'] === 'string' ? location.node['description'] : undefined;
    const object: ObjectModel = { name, classIri: this.compiler.classOf(name), properties: [] };
    if (description !== undefined) object.description = description;
    this.definitionObjects.set(name, object);
    this.objects.push(object);
    const envelope = jsonRpcEnvelope(this.index.resolver, location);
    const anchor = envelope === undefined ? undefined : String(envelope.node['$anchor']);
    if (anchor === 'Response') {
      // A result definition describes the `result` object; the message node only links to it.
      const result: ObjectModel = {
        name: `${name}.result`,
        parent: { predicate: this.resultPredicate(), object },
        properties: [],
      };
      this.objects.push(result);
      result.properties = this.properties(location, result, false);
      object.properties = [
        {
          key: 'result',
          predicate: this.resultPredicate(),
          annotated: true,
          required: true,
          list: false,
          value: { kind: 'node', alternatives: [{ classes: [], object: result }] },
          source: describedAt(this.envelopeKeys.get('result')!),
        },
      ];
    } else {
      object.properties = this.properties(location, object, anchor !== undefined);
    }
    return object;
  }

  private resultPredicate(): string {
    return this.compiler.propertyPlan('result', this.envelopeKeys.get('result')!)!.predicate;
  }

  // ---- the JSON-RPC envelope ------------------------------------------------------------------------------

  /** Object models of jrpc:Request, jrpc:Notification, jrpc:Response, jrpc:ErrorResponse and jrpc:Error. */
  private envelopeObjects(): ObjectModel[] {
    const resolve = (anchor: string) => this.index.resolver.resolve(`#${anchor}`, 'json-rpc');
    const branches: Array<[string, string, string | undefined]> = [
      ['Request', envelopeClasses['Request']!, undefined],
      ['Notification', envelopeClasses['Notification']!, undefined],
      ['Response', envelopeClasses['Response']!, 'result'],
      ['Response', envelopeClasses['ErrorResponse']!, 'error'],
    ];
    const objects: ObjectModel[] = [];
    for (const [anchor, classIri, branch] of branches) {
      const object: ObjectModel = { name: `jsonrpc.${localName(classIri)}`, classIri, properties: [] };
      const entries = this.collect(resolve(anchor), false, branch);
      for (const [key, locations] of entries.properties)
        if (!this.envelopeKeys.has(key)) this.envelopeKeys.set(key, locations[0]!);
      object.properties = this.propertyModels(entries, object, false);
      objects.push(object);
    }
    for (const [definition, classIri] of Object.entries(jsonRpcObjectClasses)) {
      const location = this.index.resolver.at(
        'json-rpc',
        definitionPointer(this.index.documents['json-rpc'], definition),
      );
      const object: ObjectModel = { name: `jsonrpc.${localName(classIri)}`, classIri, properties: [] };
      object.properties = this.propertyModels(this.collect(location, false), object, false);
      objects.push(object);
    }
    return objects;
  }

  // ---- properties -----------------------------------------------------------------------------------------

  /** The properties of the object at `location`; `message`: unannotated keys take the envelope's annotation. */
  private properties(location: SchemaLocation, owner: ObjectModel, message: boolean): PropertyModel[] {
    return this.propertyModels(this.collect(location, true), owner, message);
  }

  /**
   * The property schemas (by key, in schema order) and required keys of an object: its own, its `$ref`'s and its
   * `allOf` members' (the JSON-RPC envelope left out when `skipEnvelope`) and its `anyOf`/`oneOf` alternatives' (whose
   * required keys are not the object's); with `branch`, of a `oneOf` only the member requiring `branch`.
   */
  private collect(location: SchemaLocation, skipEnvelope: boolean, branch?: string) {
    const properties = new Map<string, SchemaLocation[]>();
    const required = new Set<string>();
    // `alternative`: reached through an anyOf/oneOf member, whose required keys the object as a whole need not have.
    const visit = (loc: SchemaLocation, seen: Set<string>, alternative = false): void => {
      const id = describedAt(loc);
      if (seen.has(id)) return;
      seen.add(id);
      const parts = this.walker.objectParts(loc);
      if (parts.ref && !(skipEnvelope && isEnvelope(parts.ref))) visit(parts.ref, seen, alternative);
      for (const member of parts.allOf) visit(member, seen, alternative);
      if (branch !== undefined) {
        for (const member of this.walker.subschemas(loc, 'oneOf')) {
          if (Array.isArray(member.node['required']) && member.node['required'].includes(branch))
            visit(member, seen, alternative);
        }
      } else for (const member of parts.alternatives) visit(member, seen, true);
      for (const [key, schema] of parts.properties) {
        if (!properties.has(key)) properties.set(key, []);
        properties.get(key)!.push(schema);
      }
      const requiredKeys = loc.node['required'];
      if (Array.isArray(requiredKeys) && !alternative)
        for (const key of requiredKeys) if (typeof key === 'string') required.add(key);
    };
    visit(location, new Set());
    return { properties, required };
  }

  private propertyModels(
    entries: { properties: Map<string, SchemaLocation[]>; required: Set<string> },
    owner: ObjectModel,
    message: boolean,
  ): PropertyModel[] {
    const models: PropertyModel[] = [];
    for (const [key, locations] of entries.properties) {
      let annotatedAt = locations.find((loc) => typeof loc.node['x-jsonld-id'] === 'string');
      const constraintLocations = [...locations];
      if (annotatedAt === undefined && message && this.envelopeKeys.has(key)) {
        annotatedAt = this.envelopeKeys.get(key)!;
        constraintLocations.push(annotatedAt);
      }
      const plan = annotatedAt === undefined ? undefined : this.compiler.propertyPlan(key, annotatedAt);
      const predicate = plan?.predicate ?? extensionPredicate(key);
      const description = locations
        .map((loc) => loc.node['description'])
        .find((d): d is string => typeof d === 'string');
      const envelopeOwner = owner.name.startsWith('jsonrpc.');
      let list = false;
      let value: ValueModel;
      if (envelopeOwner && key === 'id')
        value = { kind: 'node', alternatives: requestIdClasses.map((c) => ({ classes: [c] })) };
      else if (envelopeOwner && refinedEnvelopeKeys.has(key)) value = { kind: 'any' };
      else if (envelopeOwner && key === 'error')
        value = { kind: 'node', alternatives: [{ classes: [jsonRpcObjectClasses['ErrorObject']!] }] };
      else if (plan?.value.kind === 'list') {
        list = true;
        const items = constraintLocations
          .map((loc) => this.walker.itemsOf(loc))
          .filter((loc): loc is SchemaLocation => loc !== undefined);
        value = this.valueModel(plan.value.item, items, owner, key, predicate);
      } else value = this.valueModel(plan?.value ?? { kind: 'any' }, constraintLocations, owner, key, predicate);
      const model: PropertyModel = {
        key,
        predicate,
        annotated: plan !== undefined,
        required: entries.required.has(key),
        list,
        value,
        source: describedAt(annotatedAt ?? locations[0]!),
      };
      if (description !== undefined) model.description = description;
      models.push(model);
    }
    return models;
  }

  /** The JSON types the schemas at `locations` admit together (all of them when one is unconstrained). */
  private jsonTypesOf(locations: SchemaLocation[]): JsonType[] {
    const types = new Set<JsonType>();
    for (const location of locations) {
      const found = this.walker.jsonTypes(location);
      if (found === 'any') return ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
      for (const type of found) types.add(type);
    }
    return [...types].sort();
  }

  private valueModel(
    plan: ValuePlan,
    locations: SchemaLocation[],
    owner: ObjectModel,
    key: string,
    predicate: string,
  ): ValueModel {
    if (plan.kind === 'json') return { kind: 'json' };
    if (plan.kind === 'node')
      return { kind: 'node', alternatives: this.nodeAlternatives(plan.node, locations, owner, key, predicate) };
    const constrained = locations.filter((loc) => this.walker.jsonTypes(loc) !== 'any');
    const types = constrained.length === 0 ? undefined : this.jsonTypesOf(constrained);
    if (plan.kind === 'literal') return this.literalModel(plan.datatype, locations, types);
    if (types !== undefined && types.every((t) => t !== 'object' && t !== 'array'))
      return this.literalModel(undefined, locations, types);
    return { kind: 'any' };
  }

  /** A literal: its datatypes as the lifter writes valid values, and const/enum/minimum/maximum as literals. */
  private literalModel(
    datatype: string | undefined,
    locations: SchemaLocation[],
    types: JsonType[] | undefined,
  ): LiteralValue {
    const form = (value: JsonValue): LiteralForm =>
      value === null || typeof value === 'object'
        ? { value: JSON.stringify(value), datatype: rdf.JSON }
        : datatype === undefined
          ? naturalLiteral(value)
          : annotatedLiteral(value, datatype);
    const constraint = (keyword: string): JsonValue | undefined => {
      for (const location of locations) {
        const found = this.followKeyword(location, keyword);
        if (found !== undefined) return found;
      }
      return undefined;
    };
    const constValue = constraint('const');
    const enumValues = constraint('enum');
    const minimum = constraint('minimum');
    const maximum = constraint('maximum');
    const values: JsonValue[] =
      constValue !== undefined
        ? [constValue]
        : Array.isArray(enumValues)
          ? enumValues
          : (types ?? (Object.keys(samples) as JsonType[])).flatMap((t) => samples[t]);
    const datatypes = [...new Set(values.map((v) => form(v).datatype))];
    const main = datatype ?? datatypes[0] ?? naturalLiteral('').datatype;
    // The annotated datatype first (when a valid value can have it), then the fallbacks the lifter uses.
    const ordered = datatypes.includes(main) ? [main, ...datatypes.filter((d) => d !== main).sort()] : datatypes.sort();
    const model: LiteralValue = { kind: 'literal', datatype: main, datatypes: ordered.length > 0 ? ordered : [main] };
    if (constValue !== undefined) model.hasValue = form(constValue);
    else if (Array.isArray(enumValues)) model.in = enumValues.map(form);
    if (typeof minimum === 'number') model.minInclusive = form(minimum);
    if (typeof maximum === 'number') model.maxInclusive = form(maximum);
    return model;
  }

  /** `keyword` of the schema at `location` or of the definitions its `$ref` chain leads to. */
  private followKeyword(location: SchemaLocation, keyword: string): JsonValue | undefined {
    let current: SchemaLocation | undefined = location;
    for (let depth = 0; current !== undefined && depth < 16; depth++) {
      if (current.node[keyword] !== undefined) return current.node[keyword];
      current = this.walker.refTarget(current);
    }
    return undefined;
  }

  /** The ways a node value can be: a definition's class, the alternatives of a union, or an inline object. */
  private nodeAlternatives(
    plan: NodePlan,
    locations: SchemaLocation[],
    owner: ObjectModel,
    key: string,
    predicate: string,
  ): Alternative[] {
    const location = locations[0]!;
    const members = this.unionMembers(location) ?? this.refUnion(location);
    if (members !== undefined) {
      return members.map((member) => {
        const name = definitionName(member)!;
        const classes = [...plan.classes];
        if (this.hasConsts(member)) return { classes: [...new Set([...classes, this.compiler.classOf(name)])] };
        return { classes, object: this.definitionObject(name) };
      });
    }
    const ref = location.node['$ref'];
    if (typeof ref === 'string' && definitionName(this.index.resolver.resolve(ref, location.document)) !== undefined) {
      return [{ classes: [...plan.classes] }];
    }
    const object: ObjectModel = { name: `${owner.name}.${key}`, parent: { predicate, object: owner }, properties: [] };
    this.objects.push(object);
    object.properties = this.properties(location, object, false);
    return [{ classes: [...plan.classes], object }];
  }

  /** The members of the union definition a `$ref` leads to. */
  private refUnion(location: SchemaLocation): SchemaLocation[] | undefined {
    const target = this.walker.refTarget(location);
    return target === undefined ? undefined : this.unionMembers(target);
  }

  /** The targets of a union's `anyOf` of `$ref`s (a schema with `anyOf` and no properties of its own). */
  private unionMembers(location: SchemaLocation): SchemaLocation[] | undefined {
    const anyOf = this.walker.subschemas(location, 'anyOf');
    if (anyOf.length === 0 || isJsonObject(location.node['properties'])) return undefined;
    const targets = anyOf.map((member) => this.walker.refTarget(member));
    return targets.every((target) => target !== undefined) ? targets : undefined;
  }

  /** Whether a definition has top-level `const` properties, by which the lifter recognises it in a union. */
  private hasConsts(location: SchemaLocation): boolean {
    return this.walker
      .objectParts(this.walker.follow(location))
      .properties.some(([, schema]) => schema.node['const'] !== undefined);
  }
}

/** The name of the MCP definition at `location` (after `$ref`s), if it is one. */
function definitionName(location: SchemaLocation): string | undefined {
  return location.document === 'mcp' ? definitionNameAt(location.pointer) : undefined;
}

/** The model of the effective schema. */
export function ontologyModel(index: SchemaIndex): OntologyModel {
  return new SchemaModelBuilder(index).build();
}
