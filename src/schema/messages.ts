// Classifies the MCP schema's message definitions: which are requests, notifications and results, which method
// each carries, who sends it, and which result answers each request. Derived from the schema by rules, not lists.
import { isJsonObject, type JsonObject } from '../core/json.js';
import type { RefResolver, SchemaLocation } from './refs.js';
import { definitionPointer, definitionsOf } from './walker.js';

export type MessageKind = 'request' | 'notification' | 'result';
export type Party = 'client' | 'server';
export type Direction = 'c2s' | 's2c';

export interface MessageDefinition {
  /** Definition name, e.g. `CallToolRequest`. */
  name: string;
  kind: MessageKind;
  /** The `method` const of a request or notification. */
  method?: string;
  /** Who may send it (ping is sent by both). */
  senders: Party[];
  /** For a request: the definition of the result that answers it. */
  result?: string;
  /** For a result: the requests it answers. */
  answers?: string[];
}

/** JSON-RPC anchors that make a definition a request, a notification or a response. */
const kindByAnchor: Record<string, MessageKind> = {
  Request: 'request',
  Notification: 'notification',
  Response: 'result',
};

/** The unions that say who sends what. */
const senderUnions: Record<string, Party> = {
  ClientRequest: 'client',
  ClientNotification: 'client',
  ClientResult: 'client',
  ServerRequest: 'server',
  ServerNotification: 'server',
  ServerResult: 'server',
};

/** A request named `XRequest` is answered by `XResult` when that exists; otherwise by `EmptyResult`. */
const emptyResultName = 'EmptyResult';

export function directionOf(sender: Party): Direction {
  return sender === 'client' ? 'c2s' : 's2c';
}

export function classifyMessages(resolver: RefResolver): MessageDefinition[] {
  const document = resolver.document('mcp');
  const definitions = definitionsOf(document);
  const kindOf = (name: string): MessageKind | undefined =>
    envelopeKind(jsonRpcEnvelope(resolver, resolver.at('mcp', definitionPointer(document, name))));

  const sendersOf = new Map<string, Set<Party>>();
  for (const [union, party] of Object.entries(senderUnions)) {
    for (const member of unionMembers(resolver, union)) {
      if (!sendersOf.has(member)) sendersOf.set(member, new Set());
      sendersOf.get(member)!.add(party);
    }
  }

  const messages: MessageDefinition[] = [];
  for (const [name, node] of Object.entries(definitions)) {
    if (!isJsonObject(node)) continue;
    const method = methodConst(node);
    const kind = kindOf(name);
    if (method === undefined || (kind !== 'request' && kind !== 'notification')) continue;
    const message: MessageDefinition = { name, kind, method, senders: sortParties(sendersOf.get(name)) };
    if (kind === 'request') {
      const paired = name.replace(/Request$/, 'Result');
      message.result =
        paired !== name && paired in definitions && kindOf(paired) === 'result' ? paired : emptyResultName;
    }
    messages.push(message);
  }

  const results = new Map<string, MessageDefinition>();
  for (const request of messages.filter((m) => m.kind === 'request')) {
    const name = request.result!;
    const result = results.get(name) ?? { name, kind: 'result' as const, senders: [], answers: [] };
    result.answers!.push(request.name);
    const senders = new Set(result.senders);
    for (const sender of request.senders) senders.add(sender === 'client' ? 'server' : 'client');
    result.senders = sortParties(senders);
    results.set(name, result);
  }
  return [...messages, ...[...results.values()].sort((a, b) => a.name.localeCompare(b.name))];
}

function sortParties(parties: Set<Party> | undefined): Party[] {
  return [...(parties ?? [])].sort();
}

function methodConst(node: JsonObject): string | undefined {
  const properties = node['properties'];
  const method = isJsonObject(properties) ? properties['method'] : undefined;
  return isJsonObject(method) && typeof method['const'] === 'string' ? method['const'] : undefined;
}

/**
 * The JSON-RPC definition (`#Request`, `#Notification`, `#Response`) a definition builds on, through `$ref` and
 * `allOf`.
 */
export function jsonRpcEnvelope(
  resolver: RefResolver,
  location: SchemaLocation,
  depth = 0,
): SchemaLocation | undefined {
  if (depth > 16) return undefined;
  const target = resolver.follow(location);
  if (target.document === 'json-rpc') return target;
  const allOf = target.node['allOf'];
  if (!Array.isArray(allOf)) return undefined;
  for (const [index, member] of allOf.entries()) {
    if (!isJsonObject(member)) continue;
    const found = jsonRpcEnvelope(
      resolver,
      { document: target.document, pointer: `${target.pointer}/allOf/${index}`, node: member },
      depth + 1,
    );
    if (found) return found;
  }
  return undefined;
}

/** What a definition building on `envelope` is: a request, a notification or a result (by the envelope's anchor). */
export function envelopeKind(envelope: SchemaLocation | undefined): MessageKind | undefined {
  const anchor = envelope?.node['$anchor'];
  return typeof anchor === 'string' ? kindByAnchor[anchor] : undefined;
}

/** Names of the definitions a union definition (`anyOf` of refs) lists. */
export function unionMembers(resolver: RefResolver, union: string): string[] {
  const node = definitionsOf(resolver.document('mcp'))[union];
  const anyOf = isJsonObject(node) ? node['anyOf'] : undefined;
  if (!Array.isArray(anyOf)) return [];
  return anyOf.flatMap((member) => {
    const ref = isJsonObject(member) ? member['$ref'] : undefined;
    const match = typeof ref === 'string' ? /^#\/(?:definitions|\$defs)\/(.+)$/.exec(ref) : null;
    return match ? [match[1]!] : [];
  });
}
