// `mcp.jsonld`: the merged, flat context: `@version` 1.1, the prefixes it uses, the class terms of the MCP
// schema's `x-jsonld-extra-terms`, the extra terms of the JSON-RPC schema, and one term per JSON key annotated
// anywhere in the effective schemas (MCP and JSON-RPC). For exact semantics use messages/<Definition>.jsonld.
//
// A key with several meanings (one meaning = the term definition it would get: IRI, @type, @container) gets one,
// by this rule:
//   1. the OGC reference's meaning, when the reference maps the key to an IRI the effective schema also gives
//      that key somewhere: only the candidates with that IRI stay;
//   2. then the meaning annotated most often (every annotated property schema counts once; every definition with
//      a result context counts once for `result`; an extra term counts once);
//   3. ties: the smaller IRI (code-point order), then the smaller term definition (its JSON text).
// `result` is a node, as in the message contexts: each result definition describes the result object, so it
// counts as one annotation of `result` as a node (JSON-RPC alone calls it opaque JSON).
// A key whose chosen meaning always holds one and the same object definition (`error` → JSON-RPC's ErrorObject)
// carries an override-only scoped context for the keys that mean something else in there (`message`, `data`):
// no reset, the flat terms still apply to its other keys.
import { isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../core/json.js';
import type { DocumentId, SchemaIndex, SchemaLocation } from '../schema/index.js';
import { byCodePoint, contextDocument, contextObject, termDefinition } from './term-definitions.js';
import { extraTerms, isClassTerm, locationId, type TermMap, type TermModel } from './terms.js';
import { contextDefinitions, messageTerms, termWalker } from './message-contexts.js';
import type { PrefixMap } from './iris.js';

interface TermCandidate {
  term: TermModel;
  /** Where the object the key holds is described (`node` terms only). */
  shape?: SchemaLocation;
}

const subschemaKeywords = [
  'additionalProperties',
  'items',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
];
const subschemaLists = ['allOf', 'anyOf', 'oneOf'];
const subschemaMaps = ['definitions', '$defs', 'patternProperties', 'dependencies'];

/** Every property schema of a document (`properties` members anywhere, by the schema's structure), once each. */
export function propertySchemas(
  document: DocumentId,
  root: JsonObject,
): Array<{ key: string; location: SchemaLocation }> {
  const found: Array<{ key: string; location: SchemaLocation }> = [];
  const visit = (node: JsonValue | undefined, pointer: string): void => {
    if (!isJsonObject(node)) return;
    const properties = node['properties'];
    if (isJsonObject(properties)) {
      for (const [key, schema] of Object.entries(properties)) {
        if (!isJsonObject(schema)) continue;
        const at = joinPointer(pointer, 'properties', key);
        found.push({ key, location: { document, pointer: at, node: schema } });
        visit(schema, at);
      }
    }
    for (const keyword of subschemaKeywords) {
      const value = node[keyword];
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, joinPointer(pointer, keyword, String(i))));
      else visit(value, joinPointer(pointer, keyword));
    }
    for (const keyword of subschemaLists) {
      const value = node[keyword];
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, joinPointer(pointer, keyword, String(i))));
    }
    for (const keyword of subschemaMaps) {
      const value = node[keyword];
      if (isJsonObject(value))
        for (const [name, item] of Object.entries(value)) visit(item, joinPointer(pointer, keyword, name));
    }
  };
  visit(root, '');
  return found;
}

/** Every meaning each key has in the effective schemas, with where it comes from. */
export function termCandidates(index: SchemaIndex): Map<string, TermCandidate[]> {
  const walker = termWalker(index);
  const candidates = new Map<string, TermCandidate[]>();
  const add = (candidate: TermCandidate) => {
    const list = candidates.get(candidate.term.key) ?? [];
    list.push(candidate);
    candidates.set(candidate.term.key, list);
  };
  for (const document of ['json-rpc', 'mcp'] as const) {
    for (const { key, location } of propertySchemas(document, index.documents[document])) {
      const term = walker.propertyTerm(key, location, [], false);
      if (term === undefined) continue;
      const shape = term.kind === 'node' ? walker.objectOf(location) : undefined;
      add(shape === undefined ? { term } : { term, shape });
    }
  }
  for (const message of contextDefinitions(index)) {
    if (message.kind !== 'result') continue;
    const result = messageTerms(index, message, walker).get('result')!;
    const { scope: _scope, ...flat } = result;
    add({ term: flat, shape: index.resolver.follow(index.definition(message.name)) });
  }
  for (const term of extraTerms('json-rpc', index.documents['json-rpc'], index.prefixes)) add({ term });
  for (const term of extraTerms('mcp', index.documents.mcp, index.prefixes)) if (isClassTerm(term)) add({ term });
  return candidates;
}

/** The flat term definition a term gets in the merged context, as JSON text: what "one meaning" is. */
function flatSignature(term: TermModel, prefixes: PrefixMap): string {
  const { scope: _scope, scopeMode: _mode, ...flat } = term;
  return JSON.stringify(termDefinition(flat, prefixes, new Set()));
}

/** Applies the rule of the module header to the meanings of one key. */
export function chooseMeaning(
  candidates: readonly TermCandidate[],
  prefixes: PrefixMap,
  referenceIri?: string,
): TermCandidate[] {
  let pool = candidates;
  if (referenceIri !== undefined && pool.some((c) => c.term.iri === referenceIri))
    pool = pool.filter((c) => c.term.iri === referenceIri);
  const groups = new Map<string, TermCandidate[]>();
  for (const candidate of pool) {
    const signature = flatSignature(candidate.term, prefixes);
    groups.set(signature, [...(groups.get(signature) ?? []), candidate]);
  }
  const ranked = [...groups.entries()].sort(
    ([sa, a], [sb, b]) => b.length - a.length || byCodePoint(a[0]!.term.iri, b[0]!.term.iri) || byCodePoint(sa, sb),
  );
  return ranked[0]![1];
}

interface MergedContextOptions {
  /** Top-level term → IRI of the OGC reference context. */
  reference?: ReadonlyMap<string, string>;
}

/** The merged terms: one per key, chosen by the rule, with override scopes where the rule of the header allows. */
export function mergedTerms(index: SchemaIndex, options: MergedContextOptions = {}): TermMap {
  const prefixes = index.prefixes;
  const chosen = new Map<string, TermCandidate[]>();
  for (const [key, candidates] of termCandidates(index))
    chosen.set(key, chooseMeaning(candidates, prefixes, options.reference?.get(key)));

  const terms: TermMap = new Map();
  for (const [key, group] of chosen) {
    const { scope: _scope, ...flat } = group[0]!.term;
    terms.set(key, flat);
  }

  const walker = termWalker(index);
  for (const [key, group] of chosen) {
    const term = terms.get(key)!;
    if (term.kind !== 'node') continue;
    const shapes = new Set(group.map((c) => (c.shape === undefined ? '' : locationId(c.shape))));
    const shape = group[0]!.shape;
    if (shapes.size !== 1 || shape === undefined) continue;
    const overrides: TermMap = new Map();
    for (const [childKey, childTerm] of walker.objectTerms(shape)) {
      const { scope: _s, scopeMode: _m, ...flatChild } = childTerm;
      const outer = terms.get(childKey);
      if (outer === undefined || flatSignature(outer, prefixes) !== flatSignature(flatChild, prefixes))
        overrides.set(childKey, flatChild);
    }
    if (overrides.size > 0) terms.set(key, { ...term, scope: overrides, scopeMode: 'override' });
  }
  return terms;
}

export function mergedContext(index: SchemaIndex, options: MergedContextOptions = {}): JsonObject {
  return contextDocument(contextObject([...mergedTerms(index, options).values()], index.prefixes, { version: true }));
}
