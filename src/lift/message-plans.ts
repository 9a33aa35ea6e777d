// Per message definition, what the lifter needs: its class, and the plan of its `params` (requests and
// notifications) or of its `result` object (results); plus the JSON-RPC envelope (jsonrpc, method, error) read
// from the JSON-RPC schema's annotations, and fallback plans (the schema's Request/Notification/Result bases) for
// methods the schema does not know.
import { isJsonObject } from '../core/json.js';
import type { SchemaIndex, SchemaLocation, MessageDefinition } from '../schema/index.js';
import { PlanCompiler, type MessagePlan, type PropertyPlan } from './plan.js';
import { loadPlans, type CompiledPlans } from './plan-snapshot.js';

export type { MessagePlan } from './plan.js';

export class MessagePlans {
  readonly compiler: PlanCompiler;
  private readonly plans: Map<string, MessagePlan>;
  readonly jsonrpc: PropertyPlan;
  readonly method: PropertyPlan;
  readonly error: PropertyPlan;
  /** Predicates of `params`, `result` and `id` as the JSON-RPC schema annotates them. */
  readonly paramsPredicate: string;
  readonly resultPredicate: string;
  readonly idPredicate: string;
  /** Plans for messages whose method the schema does not know. */
  readonly unknownRequest: MessagePlan;
  readonly unknownNotification: MessagePlan;
  readonly genericResult: MessagePlan;

  /** Compiled from the schema, or read back from the cache when compiled before (see plan-snapshot.ts). */
  constructor(readonly schema: SchemaIndex) {
    const compiled = loadPlans(schema, () => compilePlans(schema));
    this.compiler = compiled.compiler;
    this.plans = compiled.plans;
    this.jsonrpc = compiled.jsonrpc;
    this.method = compiled.method;
    this.error = compiled.error;
    this.paramsPredicate = compiled.paramsPredicate;
    this.resultPredicate = compiled.resultPredicate;
    this.idPredicate = compiled.idPredicate;
    this.unknownRequest = compiled.unknownRequest;
    this.unknownNotification = compiled.unknownNotification;
    this.genericResult = compiled.genericResult;
  }

  plan(definition: string): MessagePlan | undefined {
    return this.plans.get(definition);
  }
}

function compilePlans(schema: SchemaIndex): CompiledPlans {
  const compiler = new PlanCompiler(schema);
  const envelope = (anchor: string, key: string): PropertyPlan => {
    const location = findProperty(schema, schema.resolver.resolve(`#${anchor}`, 'json-rpc'), key);
    const plan = location && compiler.propertyPlan(key, location);
    if (!plan) throw new Error(`the JSON-RPC schema does not annotate "${key}" under #${anchor}`);
    return plan;
  };
  const build = (name: string, message?: MessageDefinition): MessagePlan => {
    const location = schema.definition(name);
    const plan: MessagePlan = { definition: name, class: compiler.classOf(name) };
    const kind = message?.kind ?? (name === 'Result' ? 'result' : 'request');
    if (kind === 'result') {
      const node = compiler.nodePlan(location);
      plan.result = { ...node, classes: [] };
    } else {
      const params = findProperty(schema, location, 'params');
      const property = params && compiler.propertyPlan('params', params);
      if (property) plan.params = property;
    }
    return plan;
  };
  const jsonrpc = envelope('Request', 'jsonrpc');
  const method = envelope('Request', 'method');
  const error = envelope('Response', 'error');
  const idPredicate = envelope('Request', 'id').predicate;
  const paramsPredicate = envelope('Request', 'params').predicate;
  const resultPredicate = envelope('Response', 'result').predicate;
  const plans = new Map<string, MessagePlan>();
  for (const message of schema.messages) plans.set(message.name, build(message.name, message));
  const unknownRequest = build('Request');
  const unknownNotification = build('Notification');
  const genericResult = build('Result');
  return {
    compiler,
    plans,
    jsonrpc,
    method,
    error,
    paramsPredicate,
    resultPredicate,
    idPredicate,
    unknownRequest,
    unknownNotification,
    genericResult,
  };
}

/** The schema of property `key` as declared at `location` or in its allOf/oneOf members (not through $refs). */
function findProperty(
  schema: SchemaIndex,
  location: SchemaLocation,
  key: string,
  depth = 0,
): SchemaLocation | undefined {
  if (depth > 8) return undefined;
  const properties = location.node['properties'];
  if (isJsonObject(properties) && isJsonObject(properties[key]) && properties[key]['x-jsonld-id'] !== undefined) {
    return { document: location.document, pointer: `${location.pointer}/properties/${key}`, node: properties[key] };
  }
  for (const keyword of ['allOf', 'oneOf']) {
    const members = location.node[keyword];
    if (!Array.isArray(members)) continue;
    for (const [i, member] of members.entries()) {
      if (!isJsonObject(member)) continue;
      const memberLocation =
        typeof member['$ref'] === 'string'
          ? schema.resolver.resolve(member['$ref'], location.document)
          : { document: location.document, pointer: `${location.pointer}/${keyword}/${i}`, node: member };
      const found = findProperty(schema, memberLocation, key, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
