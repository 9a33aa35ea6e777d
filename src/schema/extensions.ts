// The official extensions a protocol version's messages may use, and how their schemas join the version's own:
// 2026-07-28's Tasks extension (`io.modelcontextprotocol/tasks`, schemas/official/2026-07-28/extensions/tasks/,
// copied untouched from its repository). An extension schema repeats the core definitions it uses; only the ones the
// core schema lacks are taken, written in the official schema's own style (a shape the extension inlines again and
// again becomes a `$ref` to the definition that names it, inline `allOf` members become the definition's own
// properties), then joined to the core's sender unions, result alternatives and extended objects, as the
// extension's specification says. What it changes is only structure: every property and constraint is kept.
import path from 'node:path';
import { canonicalJson, cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { readJsonDocument } from './documents.js';
import type { ProtocolVersion } from './versions.js';

interface ExtensionSchema {
  /** The extension's identifier, as clients and servers name it in `extensions`. */
  id: string;
  /** The schema file, relative to the schemas directory. */
  file: string;
  /** The sender union each of its messages joins (MCP's `ClientRequest`, `ServerNotification`, `ServerResult`). */
  unions: Record<string, string[]>;
  /** The requests whose result may instead be one of the extension's (a task handle), by request definition. */
  resultAlternatives: Record<string, string[]>;
  /** Definitions whose properties the extension adds to a core definition's (the subscription filter's `taskIds`). */
  additions: Record<string, string>;
}

/** The extensions of each version, from its specification. */
const versionExtensions: Partial<Record<ProtocolVersion, ExtensionSchema[]>> = {
  '2026-07-28': [
    {
      id: 'io.modelcontextprotocol/tasks',
      file: path.join('official', '2026-07-28', 'extensions', 'tasks', 'schema.json'),
      // "tasks/get, tasks/update, tasks/cancel" are sent by the client; notifications/tasks by the server.
      unions: {
        ClientRequest: ['GetTaskRequest', 'UpdateTaskRequest', 'CancelTaskRequest'],
        ServerNotification: ['TaskStatusNotification'],
        ServerResult: ['GetTaskResult', 'UpdateTaskResult', 'CancelTaskResult', 'CreateTaskResult'],
      },
      // "The following methods currently support task-augmented execution: tools/call."
      resultAlternatives: { CallToolRequest: ['CreateTaskResult'] },
      // "Task-specific fields for the subscriptions/listen request" and its acknowledgement: both are the filter.
      additions: {
        TaskSubscriptionNotifications: 'SubscriptionFilter',
        TaskSubscriptionAcknowledgedNotifications: 'SubscriptionFilter',
      },
    },
  ],
};

/** The schema files of a version's extensions (for the plans cache's fingerprint). */
export function extensionFiles(version: ProtocolVersion): string[] {
  return (versionExtensions[version] ?? []).map((extension) => extension.file);
}

function readExtension(extension: ExtensionSchema, dir: string): JsonObject {
  const definitions = readJsonDocument(extension.file, dir)['$defs'];
  if (!isJsonObject(definitions))
    throw McpLdError.of('schema.not-an-object', { detail: `${path.join(dir, extension.file)} has no $defs` });
  return definitions;
}

const refTo = (name: string): JsonObject => ({ $ref: `#/$defs/${name}` });

/** `node` with every subschema equal to a named definition (other than `self`) replaced by a `$ref` to it. */
function referToNamed(node: JsonValue, named: Map<string, string>, self: string, top = true): JsonValue {
  if (Array.isArray(node)) return node.map((member) => referToNamed(member, named, self, false));
  if (!isJsonObject(node)) return node;
  const name = top ? undefined : named.get(canonicalJson(node));
  if (name !== undefined && name !== self) return refTo(name);
  const result: JsonObject = {};
  for (const [key, child] of Object.entries(node))
    result[key] =
      key === 'properties' ? referToProperties(child, named, self) : referToNamed(child, named, self, false);
  return result;
}

/** Property schemas are subschemas too, but `properties` itself is a map of them. */
function referToProperties(properties: JsonValue, named: Map<string, string>, self: string): JsonValue {
  if (!isJsonObject(properties)) return properties;
  const result: JsonObject = {};
  for (const [key, schema] of Object.entries(properties)) result[key] = referToNamed(schema, named, self, false);
  return result;
}

/**
 * A definition written as `allOf` of references and inline objects, in the core schema's style: inline objects and
 * the core's plain object definitions (`Result`, `NotificationParams`, which the core writes out in every result and
 * params) become its own properties, the JSON-RPC envelope is left to the anchor normalize puts it on, and references
 * to the extension's own definitions (`Task`, `DetailedTask`) stay references.
 */
function flattenAllOf(node: JsonObject, core: JsonObject, envelopes: ReadonlySet<string>): JsonObject {
  if (!Array.isArray(node['allOf'])) return node;
  const kept: JsonValue[] = [];
  const properties: JsonObject = {};
  const required: string[] = [];
  const take = (member: JsonObject): void => {
    Object.assign(properties, member['properties']);
    for (const key of Array.isArray(member['required']) ? member['required'] : [])
      if (typeof key === 'string' && !required.includes(key)) required.push(key);
  };
  for (const member of node['allOf']) {
    const ref =
      isJsonObject(member) && typeof member['$ref'] === 'string' ? member['$ref'].replace('#/$defs/', '') : undefined;
    if (ref !== undefined && envelopes.has(ref)) continue;
    const target = ref === undefined ? undefined : core[ref];
    if (isJsonObject(target) && isJsonObject(target['properties']) && !('allOf' in target) && !('anyOf' in target))
      take(target);
    else if (ref === undefined && isJsonObject(member) && isJsonObject(member['properties']) && !('anyOf' in member))
      take(member);
    else kept.push(member);
  }
  if (isJsonObject(node['properties'])) take(node);
  const { allOf: _allOf, ...rest } = node;
  const result: JsonObject = { ...rest, type: 'object', properties };
  if (required.length > 0) result['required'] = required;
  if (kept.length > 0) result['allOf'] = kept;
  return result;
}

/** Adds `member` to the union definition `union` (an `anyOf`, or one member written as the member itself). */
function joinUnion(definitions: JsonObject, union: string, member: string): void {
  const node = definitions[union];
  if (!isJsonObject(node)) return;
  const members = Array.isArray(node['anyOf']) ? node['anyOf'] : [{ $ref: node['$ref'] ?? '' }];
  definitions[union] = {
    ...node,
    anyOf: [...members.filter((m) => !(isJsonObject(m) && m['$ref'] === '')), refTo(member)],
  };
  delete (definitions[union] as JsonObject)['$ref'];
}

/** The official schema of `version` with its extensions' definitions joined (a copy; `official` is not changed). */
export function withExtensions(official: JsonObject, version: ProtocolVersion, dir: string): JsonObject {
  const extensions = versionExtensions[version] ?? [];
  if (extensions.length === 0) return official;
  const document = cloneJson(official);
  const definitions = document['$defs'] as JsonObject;
  const core = official['$defs'] as JsonObject;
  const envelopes = new Set(Object.keys(definitions).filter((name) => /^JSONRPC/.test(name)));
  for (const extension of extensions) {
    const all = readExtension(extension, dir);
    const own = Object.keys(all).filter((name) => !(name in definitions));
    const stripped = new Map(own.map((name) => [name, withoutSchemaKeyword(all[name]!)]));
    const named = new Map([...stripped].map(([name, node]) => [canonicalJson(node), name]));
    for (const [name, node] of stripped) {
      const referred = referToNamed(node, named, name);
      definitions[name] = isJsonObject(referred) ? flattenAllOf(referred, core, envelopes) : referred;
    }
    for (const [union, members] of Object.entries(extension.unions))
      for (const member of members) joinUnion(definitions, union, member);
    for (const [request, results] of Object.entries(extension.resultAlternatives)) {
      const envelope = definitions[request.replace(/Request$/, 'ResultResponse')];
      const properties = isJsonObject(envelope) ? envelope['properties'] : undefined;
      const result = isJsonObject(properties) ? properties['result'] : undefined;
      if (!isJsonObject(properties) || !isJsonObject(result)) continue;
      const members = Array.isArray(result['anyOf']) ? result['anyOf'] : [{ ...result }];
      properties['result'] = { anyOf: [...members, ...results.map(refTo)] };
    }
    for (const [addition, target] of Object.entries(extension.additions)) {
      const from = definitions[addition];
      const to = definitions[target];
      if (!isJsonObject(from) || !isJsonObject(to) || !isJsonObject(from['properties'])) continue;
      definitions[target] = {
        ...to,
        properties: { ...(isJsonObject(to['properties']) ? to['properties'] : {}), ...from['properties'] },
      };
    }
  }
  return document;
}

function withoutSchemaKeyword(node: JsonValue): JsonValue {
  if (!isJsonObject(node)) return node;
  const { $schema: _schema, ...rest } = node;
  return rest;
}
