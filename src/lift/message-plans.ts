// Per message definition, what the lifter needs: its class, and the plan of its `params` (requests and
// notifications) or of its `result` object (results); plus the JSON-RPC envelope (jsonrpc, method, error) read
// from the JSON-RPC schema's annotations, and fallback plans (the schema's Request/Notification/Result bases) for
// methods the schema does not know.
import { isJsonObject } from '../core/json.js';
import type { SchemaIndex, SchemaLocation, MessageDefinition } from '../schema/index.js';
import { PlanCompiler, type NodePlan, type PropertyPlan } from './plan.js';
import { jrpc } from './vocabulary.js';

export interface MessagePlan {
  definition: string;
  /** The MCP class of messages of this definition (e.g. mcp:CallToolRequest). */
  class: string;
  /** The plan of `params` (requests, notifications). */
  params?: PropertyPlan;
  /** The plan of the `result` object (results). */
  result?: NodePlan;
}

export class MessagePlans {
  readonly compiler: PlanCompiler;
  private readonly plans = new Map<string, MessagePlan>();
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

  constructor(readonly schema: SchemaIndex) {
    this.compiler = new PlanCompiler(schema);
    const envelope = (anchor: string, key: string): PropertyPlan => {
      const location = findProperty(schema, schema.resolver.resolve(`#${anchor}`, 'json-rpc'), key);
      const plan = location && this.compiler.propertyPlan(key, location);
      if (!plan) throw new Error(`the JSON-RPC schema does not annotate "${key}" under #${anchor}`);
      return plan;
    };
    this.jsonrpc = envelope('Request', 'jsonrpc');
    this.method = envelope('Request', 'method');
    this.error = envelope('Response', 'error');
    this.idPredicate = envelope('Request', 'id').predicate;
    this.paramsPredicate = envelope('Request', 'params').predicate;
    this.resultPredicate = envelope('Response', 'result').predicate;
    for (const message of schema.messages) this.plans.set(message.name, this.build(message.name, message));
    this.unknownRequest = this.build('Request');
    this.unknownNotification = this.build('Notification');
    this.genericResult = this.build('Result');
  }

  plan(definition: string): MessagePlan | undefined {
    return this.plans.get(definition);
  }

  private build(name: string, message?: MessageDefinition): MessagePlan {
    const location = this.schema.definition(name);
    const plan: MessagePlan = { definition: name, class: this.compiler.classOf(name) };
    const kind = message?.kind ?? (name === 'Result' ? 'result' : 'request');
    if (kind === 'result') {
      const node = this.compiler.nodePlan(location);
      plan.result = { ...node, classes: [] };
    } else {
      const params = findProperty(this.schema, location, 'params');
      const property = params && this.compiler.propertyPlan('params', params);
      if (property) plan.params = property;
    }
    return plan;
  }
}

/** The schema of property `key` as declared at `location` or in its allOf/oneOf members (not through $refs). */
function findProperty(schema: SchemaIndex, location: SchemaLocation, key: string, depth = 0): SchemaLocation | undefined {
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
      const memberLocation = typeof member['$ref'] === 'string' ? schema.resolver.resolve(member['$ref'], location.document) : { document: location.document, pointer: `${location.pointer}/${keyword}/${i}`, node: member };
      const found = findProperty(schema, memberLocation, key, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

export const jsonRpcClasses = { request: jrpc.Request, notification: jrpc.Notification, response: jrpc.Response, error: jrpc.ErrorResponse } as const;
