// Carries the JSON-LD annotations of one version's effective schema to the same definitions and properties of
// another version's (normalized) official schema: by definition name and property path, through `$ref`s, and
// through the split of inline `params` objects into `*RequestParams` definitions (and back). It annotates only what
// both versions have and never overwrites an annotation; what is new is the version's annotation file's to say.
import { cloneJson, getAtPointer, isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../core/json.js';
import { senderUnions, withoutEnvelopeMembers } from './normalize.js';

const annotationKeys = ['x-jsonld-id', 'x-jsonld-type', 'x-jsonld-container'] as const;

export interface CarryReport {
  /** Property schemas that received their annotations from the earlier version. */
  carried: number;
  /** Definitions new under their name, annotated from where the earlier version described the same object. */
  pairedDefinitions: { definition: string; from: string }[];
}

interface Pair {
  definition: string;
  /** JSON pointer of the object in the earlier version's document that describes the same thing. */
  from: string;
}

const definitionsOf = (document: JsonObject): JsonObject =>
  isJsonObject(document['definitions']) ? document['definitions'] : {};

const localRef = (node: JsonObject): string | undefined => {
  const ref = node['$ref'];
  const match = typeof ref === 'string' ? /^#\/definitions\/(.+)$/.exec(ref) : null;
  return match ? match[1] : undefined;
};

function atPointer(document: JsonObject, pointer: string): JsonObject | undefined {
  const node = getAtPointer(document, pointer);
  return isJsonObject(node) ? node : undefined;
}

/**
 * `earlier`: the effective (annotated) document of the version annotations come from; `later`: the normalized
 * document to annotate (not modified: the annotated copy is returned). Root prefixes and extra terms are carried
 * too, except class terms of definitions the later version no longer has. `renamed` maps a later definition name
 * to the earlier name of the same definition.
 */
export function carryAnnotations(
  earlier: JsonObject,
  later: JsonObject,
  renamed: Record<string, string> = {},
): { document: JsonObject; report: CarryReport } {
  const document = cloneJson(later);
  const earlierDefinitions = definitionsOf(earlier);
  const laterDefinitions = definitionsOf(document);
  const report: CarryReport = { carried: 0, pairedDefinitions: [] };

  const prefixes = earlier['x-jsonld-prefixes'];
  if (isJsonObject(prefixes)) document['x-jsonld-prefixes'] = cloneJson(prefixes);
  const extra = earlier['x-jsonld-extra-terms'];
  if (isJsonObject(extra)) {
    const kept: JsonObject = {};
    for (const [name, term] of Object.entries(extra))
      if (!(name in earlierDefinitions) || name in laterDefinitions) kept[name] = cloneJson(term);
    document['x-jsonld-extra-terms'] = kept;
  }

  const queue: Pair[] = [];
  const paired = new Set<string>();
  const pair = (definition: string, from: string): void => {
    if (paired.has(definition) || !(definition in laterDefinitions)) return;
    paired.add(definition);
    queue.push({ definition, from });
  };
  for (const name of Object.keys(laterDefinitions)) if (name in earlierDefinitions) pair(name, `/definitions/${name}`);
  for (const [name, before] of Object.entries(renamed))
    if (before in earlierDefinitions) pair(name, `/definitions/${before}`);

  const walk = (node: JsonObject, fromPointer: string, depth: number): void => {
    const from = atPointer(earlier, fromPointer);
    if (from === undefined || depth > 24) return;
    if (
      typeof node['x-jsonld-id'] !== 'string' &&
      typeof from['x-jsonld-id'] === 'string' &&
      !structuredSince(from, node)
    ) {
      for (const key of annotationKeys) if (from[key] !== undefined) node[key] = cloneJson(from[key]!);
      report.carried++;
    }
    const target = localRef(node);
    if (target !== undefined) {
      // The later version moved this object into a definition of its own (the params split) or renamed it.
      const fromTarget = localRef(from);
      if (fromTarget === undefined) pair(target, fromPointer);
      else if (!(target in earlierDefinitions)) pair(target, `/definitions/${fromTarget}`);
      return;
    }
    const fromTarget = localRef(from);
    if (fromTarget !== undefined && isJsonObject(node['properties'])) {
      // The later version writes inline what the earlier one kept in a definition.
      walkMembers(node, `/definitions/${fromTarget}`, depth + 1);
      return;
    }
    walkMembers(node, fromPointer, depth);
  };

  const walkMembers = (node: JsonObject, fromPointer: string, depth: number): void => {
    const from = atPointer(earlier, fromPointer);
    if (from === undefined) return;
    const alternatives = Array.isArray(node['anyOf']) ? node['anyOf'].filter(isJsonObject).map(localRef) : [];
    if (localRef(from) === undefined && alternatives.length > 0 && alternatives.every((name) => name !== undefined)) {
      // The later version split one object into alternatives (elicitation's form and URL params): each is that object.
      for (const name of alternatives) if (!(name! in earlierDefinitions)) pair(name!, fromPointer);
      return;
    }
    const properties = node['properties'];
    const fromProperties = from['properties'];
    if (isJsonObject(properties) && isJsonObject(fromProperties)) {
      for (const [key, schema] of Object.entries(properties)) {
        if (isJsonObject(schema) && isJsonObject(fromProperties[key]))
          walk(schema, joinPointer(fromPointer, 'properties', key), depth + 1);
      }
    }
    for (const keyword of ['items', 'additionalProperties']) {
      const child = node[keyword];
      if (isJsonObject(child) && isJsonObject(from[keyword])) walk(child, joinPointer(fromPointer, keyword), depth + 1);
    }
    for (const keyword of ['anyOf', 'oneOf']) {
      const members = node[keyword];
      const fromMembers = from[keyword];
      if (!Array.isArray(members) || !Array.isArray(fromMembers) || members.length !== fromMembers.length) continue;
      members.forEach((member, index) => {
        if (isJsonObject(member) && localRef(member) === undefined)
          walk(member, joinPointer(fromPointer, keyword, String(index)), depth + 1);
      });
    }
  };

  /** A value the earlier version kept whole as JSON whose keys the later version defines: its meaning changed. */
  const structuredSince = (from: JsonObject, node: JsonObject): boolean => {
    if (from['x-jsonld-type'] !== '@json') return false;
    const target = localRef(node);
    const described = target === undefined ? node : laterDefinitions[target];
    const defined = (schema: JsonValue | undefined): boolean =>
      isJsonObject(schema) && isJsonObject(schema['properties']) && Object.keys(schema['properties']).length > 0;
    return defined(described) && !defined(from);
  };

  const earlierMembers = new Set(
    Object.keys(senderUnions).flatMap((union) => {
      const node = earlierDefinitions[union];
      const members = isJsonObject(node) && Array.isArray(node['anyOf']) ? node['anyOf'] : [];
      return members.flatMap((member) =>
        isJsonObject(member) && localRef(member) !== undefined ? [localRef(member)!] : [],
      );
    }),
  );

  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    let node = laterDefinitions[next.definition];
    if (!isJsonObject(node)) continue;
    if (!(next.definition in earlierDefinitions))
      report.pairedDefinitions.push({ definition: next.definition, from: next.from });
    // A definition is annotated member by member; its own annotations (a definition is no property) are not carried.
    const fromTarget = atPointer(earlier, next.from);
    if (fromTarget === undefined) continue;
    if (
      !Array.isArray(node['allOf']) &&
      Array.isArray(fromTarget['allOf']) &&
      next.from === `/definitions/${next.definition}` &&
      !earlierMembers.has(next.definition)
    ) {
      // A base definition the earlier version built on a JSON-RPC anchor (Request, PaginatedRequest) still does. A
      // message is one by the later version's unions: 2026-07-28's elicitation/create is only embedded in results.
      const anchors = fromTarget['allOf'].filter(
        (member) => isJsonObject(member) && typeof member['$ref'] === 'string' && !member['$ref'].startsWith('#'),
      );
      if (anchors.length > 0)
        laterDefinitions[next.definition] = node = { allOf: cloneJson(anchors), ...withoutEnvelopeMembers(node) };
    }
    const fromRef = localRef(fromTarget);
    walkMembers(node, fromRef !== undefined && localRef(node) === undefined ? `/definitions/${fromRef}` : next.from, 0);
  }
  return { document, report };
}
