// Annotation coverage: every property a message of the schema can carry, reached from its request, notification
// and result definitions through `$ref`, `items`, `additionalProperties` and `allOf`/`anyOf`/`oneOf`, is
// annotated, or excused by the version's annotation file, or inside a value kept whole as JSON (`@json`). A
// message's `method` is the JSON-RPC envelope's to annotate. Names what is left, so a new version cannot slip by.
import { isJsonObject, joinPointer, splitPointer, type JsonObject } from '../core/json.js';
import type { SchemaIndex } from './schema-index.js';
import { unionMembers } from './messages.js';
import { senderUnions } from './normalize.js';

export interface CoverageReport {
  /** Property schemas reached from the messages (JSON pointers into the version's document). */
  reached: number;
  annotated: number;
  /** Left without an annotation on purpose (the annotation file says why). */
  excused: { pointer: string; why: string }[];
  /** Left without an annotation and without a reason: each one fails the check. */
  missing: string[];
}

/** `/definitions/Tool/properties/execution/properties/taskSupport` → `Tool.execution.taskSupport`. */
export function propertyLabel(pointer: string): string {
  const tokens = splitPointer(pointer);
  const names: string[] = [tokens[1] ?? pointer];
  for (let index = 2; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token === 'properties' && index + 1 < tokens.length) names.push(tokens[++index]!);
    else if (token === 'items') names.push('[]');
    else if (token === 'additionalProperties') names.push('*');
  }
  return names.join('.').replace(/\.\[\]/g, '[]');
}

export function annotationCoverage(index: SchemaIndex): CoverageReport {
  const document = index.documents.mcp;
  const excuses = new Map(index.versionFacts.unannotated.map((excuse) => [excuse.at, excuse.why]));
  const report: CoverageReport = { reached: 0, annotated: 0, excused: [], missing: [] };
  const visited = new Set<string>();

  const visit = (node: JsonObject, pointer: string, anchored: boolean): void => {
    if (visited.has(pointer)) return;
    visited.add(pointer);
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
      const target = ref.slice(1);
      const definition = document['definitions'] as JsonObject;
      const name = target.slice('/definitions/'.length);
      if (isJsonObject(definition[name])) visit(definition[name], target, isAnchored(definition[name]));
    }
    const properties = node['properties'];
    if (isJsonObject(properties)) {
      for (const [key, schema] of Object.entries(properties)) {
        if (!isJsonObject(schema)) continue;
        const at = joinPointer(pointer, 'properties', key);
        if (anchored && key === 'method') continue;
        report.reached++;
        if (typeof schema['x-jsonld-id'] === 'string') report.annotated++;
        else if (excuses.has(at)) report.excused.push({ pointer: at, why: excuses.get(at)! });
        else report.missing.push(at);
        if (schema['x-jsonld-type'] !== '@json') visit(schema, at, false);
      }
    }
    for (const keyword of ['items', 'additionalProperties']) {
      const child = node[keyword];
      if (isJsonObject(child)) visit(child, joinPointer(pointer, keyword), false);
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      const members = node[keyword];
      if (Array.isArray(members))
        members.forEach(
          (member, position) =>
            isJsonObject(member) && visit(member, joinPointer(pointer, keyword, String(position)), anchored),
        );
    }
  };

  const definitions = document['definitions'] as JsonObject;
  const roots = new Set(index.messages.map((message) => message.name));
  // Every member of the unions that say who sends what, and every result a request may get (InputRequiredResult).
  for (const union of Object.keys(senderUnions))
    for (const member of unionMembers(index.resolver, union)) roots.add(member);
  for (const results of Object.values(index.versionFacts.resultAlternatives))
    for (const result of results) roots.add(result);
  // And every definition that carries a method, embedded ones too (2026-07-28's input requests), with its result.
  for (const name of Object.keys(definitions)) {
    if (index.methodOfDefinition(name) === undefined) continue;
    roots.add(name);
    if (isJsonObject(definitions[name.replace(/Request$/, 'Result')])) roots.add(name.replace(/Request$/, 'Result'));
  }
  for (const name of roots) {
    const node = definitions[name];
    if (isJsonObject(node)) visit(node, `/definitions/${name}`, isAnchored(node));
  }
  return report;
}

/** A definition building on a JSON-RPC anchor: the envelope annotates its `method`. */
function isAnchored(node: JsonObject): boolean {
  const allOf = node['allOf'];
  return (
    Array.isArray(allOf) &&
    allOf.some(
      (member) => isJsonObject(member) && typeof member['$ref'] === 'string' && !member['$ref'].startsWith('#'),
    )
  );
}
