// Compiled message plans kept in the cache (see core/cache.ts), keyed by the effective schema and the code that
// compiles them: reading them back costs a start-up less than half of compiling them. Plans are a graph (nodes
// refer to nodes, recursively), so each node and property plan is stored once in a table, referred to by index.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeVersion, contentKey, readCached, writeCached } from '../core/cache.js';
import { schemaCodeVersion, type SchemaIndex } from '../schema/index.js';
import { PlanCompiler, type MessagePlan, type NodePlan, type PropertyPlan, type ValuePlan } from './plan.js';

/** Everything MessagePlans compiles. */
export interface CompiledPlans {
  compiler: PlanCompiler;
  plans: Map<string, MessagePlan>;
  jsonrpc: PropertyPlan;
  method: PropertyPlan;
  error: PropertyPlan;
  paramsPredicate: string;
  resultPredicate: string;
  idPredicate: string;
  unknownRequest: MessagePlan;
  unknownNotification: MessagePlan;
  genericResult: MessagePlan;
}

/** A value plan with its node as an index into the node table. */
type StoredValue =
  | Exclude<ValuePlan, { kind: 'node' } | { kind: 'list' }>
  | { kind: 'node'; node: number }
  | { kind: 'list'; item: StoredValue };

interface StoredNode {
  pointer: string;
  /** Property plans by key, as indexes into the property table. */
  properties: [string, number][];
  /** The property plans of `byPredicate` (each under its own predicate), in order. */
  byPredicate: number[];
  classes: string[];
  alternatives: NodePlan['alternatives'];
}

interface StoredProperty {
  key: string;
  predicate: string;
  value: StoredValue;
}

interface StoredMessagePlan {
  definition: string;
  class: string;
  params?: number;
  result?: number;
}

interface StoredPlans {
  prefixes: Record<string, string>;
  classTerms: [string, string][];
  /** The compiler's node plans by schema location. */
  nodePlans: [string, number][];
  nodes: StoredNode[];
  properties: StoredProperty[];
  plans: [string, StoredMessagePlan][];
  envelope: {
    jsonrpc: number;
    method: number;
    error: number;
    paramsPredicate: string;
    resultPredicate: string;
    idPredicate: string;
  };
  unknownRequest: StoredMessagePlan;
  unknownNotification: StoredMessagePlan;
  genericResult: StoredMessagePlan;
}

const here = path.dirname(fileURLToPath(import.meta.url));
let planCode: string | undefined;

/** What identifies the code plans are compiled by: the schema stage's, and the modules of the plans. */
function planCodeVersion(): string {
  const modules = ['plan.js', 'message-plans.js', 'plan-snapshot.js', '../rdf/vocabulary.js'].map((file) =>
    path.join(here, file),
  );
  return (planCode ??= contentKey([schemaCodeVersion(), codeVersion(modules)]));
}

/** The plans of `schema`: from the cache when stored there, else compiled by `compile` (and stored). */
export function loadPlans(schema: SchemaIndex, compile: () => CompiledPlans): CompiledPlans {
  const name = `plans-${contentKey([schema.contentKey, planCodeVersion()])}.json`;
  const text = readCached(name);
  if (text !== undefined) {
    try {
      return restorePlans(schema, JSON.parse(text) as StoredPlans);
    } catch {
      // a damaged cache file: compile again
    }
  }
  const compiled = compile();
  writeCached(name, JSON.stringify(storePlans(compiled)));
  return compiled;
}

function storePlans(compiled: CompiledPlans): StoredPlans {
  const nodes: StoredNode[] = [];
  const properties: StoredProperty[] = [];
  const nodeIndex = new Map<NodePlan, number>();
  const propertyIndex = new Map<PropertyPlan, number>();
  // Each plan gets its index before what it refers to is stored: recursive plans refer to themselves.
  const node = (plan: NodePlan): number => {
    let index = nodeIndex.get(plan);
    if (index !== undefined) return index;
    index = nodes.length;
    nodeIndex.set(plan, index);
    const stored: StoredNode = {
      pointer: plan.pointer,
      properties: [],
      byPredicate: [],
      classes: plan.classes,
      alternatives: plan.alternatives,
    };
    nodes.push(stored);
    for (const [key, property] of plan.properties) stored.properties.push([key, propertyAt(property)]);
    for (const property of plan.byPredicate.values()) stored.byPredicate.push(propertyAt(property));
    return index;
  };
  const propertyAt = (plan: PropertyPlan): number => {
    let index = propertyIndex.get(plan);
    if (index !== undefined) return index;
    index = properties.length;
    propertyIndex.set(plan, index);
    const stored: StoredProperty = { key: plan.key, predicate: plan.predicate, value: { kind: 'any' } };
    properties.push(stored);
    stored.value = value(plan.value);
    return index;
  };
  const value = (plan: ValuePlan): StoredValue =>
    plan.kind === 'node'
      ? { kind: 'node', node: node(plan.node) }
      : plan.kind === 'list'
        ? { kind: 'list', item: value(plan.item) }
        : plan;
  const message = (plan: MessagePlan): StoredMessagePlan => {
    const stored: StoredMessagePlan = { definition: plan.definition, class: plan.class };
    if (plan.params) stored.params = propertyAt(plan.params);
    if (plan.result) stored.result = node(plan.result);
    return stored;
  };
  const state = compiled.compiler.state();
  return {
    prefixes: state.prefixes,
    classTerms: state.classTerms,
    nodePlans: state.nodePlans.map(([key, plan]) => [key, node(plan)]),
    plans: [...compiled.plans].map(([name, plan]) => [name, message(plan)]),
    envelope: {
      jsonrpc: propertyAt(compiled.jsonrpc),
      method: propertyAt(compiled.method),
      error: propertyAt(compiled.error),
      paramsPredicate: compiled.paramsPredicate,
      resultPredicate: compiled.resultPredicate,
      idPredicate: compiled.idPredicate,
    },
    unknownRequest: message(compiled.unknownRequest),
    unknownNotification: message(compiled.unknownNotification),
    genericResult: message(compiled.genericResult),
    nodes,
    properties,
  };
}

function restorePlans(schema: SchemaIndex, stored: StoredPlans): CompiledPlans {
  // The objects first, then the references between them.
  const nodes: NodePlan[] = stored.nodes.map((n) => ({
    pointer: n.pointer,
    properties: new Map(),
    byPredicate: new Map(),
    classes: n.classes,
    alternatives: n.alternatives,
  }));
  const value = (plan: StoredValue): ValuePlan =>
    plan.kind === 'node'
      ? { kind: 'node', node: at(nodes, plan.node) }
      : plan.kind === 'list'
        ? { kind: 'list', item: value(plan.item) }
        : plan;
  const properties: PropertyPlan[] = stored.properties.map((p) => ({
    key: p.key,
    predicate: p.predicate,
    value: value(p.value),
  }));
  stored.nodes.forEach((n, i) => {
    for (const [key, index] of n.properties) nodes[i]!.properties.set(key, at(properties, index));
    for (const index of n.byPredicate) {
      const property = at(properties, index);
      nodes[i]!.byPredicate.set(property.predicate, property);
    }
  });
  const message = (m: StoredMessagePlan): MessagePlan => {
    const plan: MessagePlan = { definition: m.definition, class: m.class };
    if (m.params !== undefined) plan.params = at(properties, m.params);
    if (m.result !== undefined) plan.result = at(nodes, m.result);
    return plan;
  };
  const { envelope } = stored;
  return {
    compiler: new PlanCompiler(schema, {
      prefixes: stored.prefixes,
      classTerms: stored.classTerms,
      nodePlans: stored.nodePlans.map(([key, index]) => [key, at(nodes, index)]),
    }),
    plans: new Map(stored.plans.map(([name, plan]) => [name, message(plan)])),
    jsonrpc: at(properties, envelope.jsonrpc),
    method: at(properties, envelope.method),
    error: at(properties, envelope.error),
    paramsPredicate: envelope.paramsPredicate,
    resultPredicate: envelope.resultPredicate,
    idPredicate: envelope.idPredicate,
    unknownRequest: message(stored.unknownRequest),
    unknownNotification: message(stored.unknownNotification),
    genericResult: message(stored.genericResult),
  };
}

/** Entry `index` of a table, which a stored reference must name. */
function at<T>(table: T[], index: number): T {
  const entry = table[index];
  if (entry === undefined) throw new Error(`stored plans refer to a missing entry ${index}`);
  return entry;
}
