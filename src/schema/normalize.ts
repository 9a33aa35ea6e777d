// Puts an official MCP schema (draft-07 `definitions` or 2020-12 `$defs`) into the shape of the annotated seed, so
// that every stage reads every version the same way: definitions under `definitions`, messages building on the
// JSON-RPC schema's `#Request`/`#Notification`/`#Response` anchors instead of repeating `jsonrpc` and `id`, and the
// JSON-RPC envelope definitions (`JSONRPC*`, 2026-07-28's `*ResultResponse`) left to the JSON-RPC schema. What it
// changes is only structure: every definition, property and constraint of the official schema is still there.
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { documentUris } from './documents.js';

/** Who sends what: the unions the seed classifies messages by, with the JSON-RPC anchor their members build on. */
export const senderUnions: Record<string, 'Request' | 'Notification' | 'Response'> = {
  ClientRequest: 'Request',
  ServerRequest: 'Request',
  ClientNotification: 'Notification',
  ServerNotification: 'Notification',
  ClientResult: 'Response',
  ServerResult: 'Response',
};

/** The seed's root `anyOf`: what a whole message may be. */
const rootUnions = ['ClientRequest', 'ClientResult', 'ServerRequest', 'ServerResult'];

/** Definitions that are JSON-RPC envelopes, which the JSON-RPC schema describes once for every message. */
export function isEnvelopeDefinition(name: string): boolean {
  return /^JSONRPC/.test(name) || /ResultResponse$/.test(name);
}

interface NormalizedSchema {
  document: JsonObject;
  /** The envelope definitions left out, with the definition each result envelope allows (`result` alternatives). */
  envelopes: string[];
  /** For each request, every result definition its `*ResultResponse` envelope allows (2026-07-28), in order. */
  resultAlternatives: Record<string, string[]>;
}

/** Whether a params schema (or one of its alternatives, as elicitation's form and URL params) has `task`. */
function takesTask(definitions: JsonObject, params: JsonValue | undefined, depth = 0): boolean {
  if (!isJsonObject(params) || depth > 4) return false;
  const target = refName(params);
  if (target !== undefined) return takesTask(definitions, definitions[target], depth + 1);
  if (isJsonObject(params['properties']) && isJsonObject(params['properties']['task'])) return true;
  return Array.isArray(params['anyOf']) && params['anyOf'].some((member) => takesTask(definitions, member, depth + 1));
}

/** Rewrites `#/$defs/X` to `#/definitions/X` everywhere below `value`. */
function rewriteRefs(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!isJsonObject(value)) return value;
  const result: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    result[key] =
      key === '$ref' && typeof child === 'string'
        ? child.replace(/^#\/\$defs\//, '#/definitions/')
        : rewriteRefs(child);
  }
  return result;
}

const refName = (node: JsonValue | undefined): string | undefined => {
  const ref = isJsonObject(node) ? node['$ref'] : undefined;
  const match = typeof ref === 'string' ? /^#\/definitions\/(.+)$/.exec(ref) : null;
  return match ? match[1] : undefined;
};

const methodOf = (node: JsonValue | undefined): string | undefined => {
  const properties = isJsonObject(node) ? node['properties'] : undefined;
  const method = isJsonObject(properties) ? properties['method'] : undefined;
  return isJsonObject(method) && typeof method['const'] === 'string' ? method['const'] : undefined;
};

/** `{allOf: [anchor, ...its own allOf], ...node}`: the anchor first, as the seed writes it. */
function onAnchor(node: JsonObject, anchor: string): JsonObject {
  const inherited = Array.isArray(node['allOf']) ? node['allOf'] : [];
  const result: JsonObject = { allOf: [{ $ref: `${documentUris['json-rpc']}#${anchor}` }, ...inherited] };
  for (const [key, value] of Object.entries(node)) if (key !== 'allOf') result[key] = value;
  return result;
}

/** A message without the envelope's own members (`jsonrpc`, `id`), which its anchor describes. */
export function withoutEnvelopeMembers(node: JsonObject): JsonObject {
  const properties = node['properties'];
  if (!isJsonObject(properties)) return node;
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = properties;
  const result: JsonObject = { ...node, properties: rest };
  if (Array.isArray(node['required']))
    result['required'] = node['required'].filter((key) => key !== 'jsonrpc' && key !== 'id');
  return result;
}

export function normalizeOfficialSchema(official: JsonObject): NormalizedSchema {
  const source = rewriteRefs(cloneJson(official)) as JsonObject;
  const all = (isJsonObject(source['$defs']) ? source['$defs'] : source['definitions']) as JsonObject | undefined;
  const definitions: JsonObject = {};
  const envelopes: string[] = [];
  const resultAlternatives: Record<string, string[]> = {};
  for (const [name, node] of Object.entries(all ?? {})) {
    if (isEnvelopeDefinition(name)) envelopes.push(name);
    else definitions[name] = node;
  }

  // A request's result envelope (`CallToolResultResponse`) names the results it may carry.
  for (const name of envelopes) {
    const envelope = all![name];
    const request = name.replace(/ResultResponse$/, 'Request');
    const result =
      isJsonObject(envelope) && isJsonObject(envelope['properties']) ? envelope['properties']['result'] : undefined;
    if (request === name || !isJsonObject(result)) continue;
    const members = Array.isArray(result['anyOf']) ? result['anyOf'] : [result];
    const names = members.map(refName).filter((member): member is string => member !== undefined);
    if (names.length > 0) resultAlternatives[request] = names;
  }

  // A union with one member is written as that member (2026-07-28's ClientNotification, ClientResult): make it a union.
  for (const union of Object.keys(senderUnions)) {
    const node = definitions[union];
    if (!isJsonObject(node) || Array.isArray(node['anyOf'])) continue;
    const method = methodOf(node);
    const member =
      refName(node) ??
      Object.keys(definitions).find(
        (name) => name !== union && method !== undefined && methodOf(definitions[name]) === method,
      );
    if (member === undefined) continue;
    definitions[union] = {
      anyOf: [{ $ref: `#/definitions/${member}` }],
      ...(typeof node['description'] === 'string' ? { description: node['description'] } : {}),
    };
  }

  // 2025-11-25: a request that may run as a task (its params have `task`) is answered by CreateTaskResult then.
  if (isJsonObject(definitions['CreateTaskResult'])) {
    for (const [name, node] of Object.entries(definitions)) {
      const params = isJsonObject(node) && isJsonObject(node['properties']) ? node['properties']['params'] : undefined;
      if (!name.endsWith('Request') || !takesTask(definitions, params)) continue;
      const paired = name.replace(/Request$/, 'Result');
      resultAlternatives[name] = ['CreateTaskResult', ...(paired in definitions ? [paired] : [])];
    }
  }

  const anchored = new Set<string>();
  for (const [union, anchor] of Object.entries(senderUnions)) {
    const node = definitions[union];
    if (!isJsonObject(node)) continue;
    definitions[union] = onAnchor(node, anchor);
    for (const member of (node['anyOf'] as JsonValue[]).map(refName)) {
      const target = member === undefined ? undefined : definitions[member];
      if (member === undefined || anchored.has(member) || !isJsonObject(target) || '$ref' in target) continue;
      anchored.add(member);
      definitions[member] = onAnchor(anchor === 'Response' ? target : withoutEnvelopeMembers(target), anchor);
    }
  }

  // Every result a request may get is a JSON-RPC result, in a union or not (InputRequiredResult, CreateTaskResult).
  for (const member of new Set(Object.values(resultAlternatives).flat())) {
    const target = definitions[member];
    if (anchored.has(member) || !isJsonObject(target) || '$ref' in target) continue;
    anchored.add(member);
    definitions[member] = onAnchor(target, 'Response');
  }

  const document: JsonObject = { $schema: 'http://json-schema.org/draft-07/schema#', definitions };
  const roots = rootUnions.filter((union) => union in definitions).map((union) => ({ $ref: `#/definitions/${union}` }));
  if (roots.length > 0) document['anyOf'] = roots;
  return { document, envelopes, resultAlternatives };
}
