// Writes term models as JSON-LD 1.1 term definitions and contexts: IRIs compacted with the declared prefixes,
// each context declaring exactly the prefixes its own terms use, keys in a stable order.
//
// An `exact` scope becomes a property-scoped context that starts with a reset, `"@context": [null, {…}]`, so
// that no term of an enclosing object leaks into the value: inside it, a key means what its own definition says
// or nothing. JSON-LD 1.1 lets a property-scoped context start with null (it is processed with "override
// protected"); jsonld.js 9 accepts and honours it: keys the value's definition does not annotate are dropped,
// not read with an outer term (pinned by test/context/message-contexts.test.ts).
import type { JsonObject, JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { compactIri, type PrefixMap } from './iris.js';
import { mergeTermMaps, type TermMap, type TermModel } from './terms.js';

const jsonLdVersion = 1.1;

/** Code-point order, so that the output does not depend on the locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface ContextOptions {
  /** Write `@version` 1.1 (top-level contexts). */
  version?: boolean;
  /**
   * The `@vocab` of this context and of every scoped context below it that starts with a reset: keys without a
   * term then expand into it instead of being dropped. A scope whose keys have a `/` needs its own (see vocabularyFor).
   */
  vocabulary?: string;
  /** Keys written as `null` (unmapped: a processor ignores them, `@vocab` or not) in this context only. */
  unmapped?: readonly string[];
  /** What the context cannot say, written as its `@comment` (a keyword-like term, which JSON-LD 1.1 ignores). */
  comment?: string;
}

/** The term definition of `term`; records the prefixes it uses in `used`. */
export function termDefinition(
  term: TermModel,
  prefixes: PrefixMap,
  used: Set<string>,
  vocabulary?: string,
): JsonValue {
  const compact = (iri: string): string => {
    const result = compactIri(iri, prefixes);
    if (result.prefix !== undefined) used.add(result.prefix);
    return result.value;
  };
  if (term.kind === 'alias') return term.iri;
  const definition: JsonObject = { '@id': compact(term.iri) };
  if (term.kind === 'json') definition['@type'] = '@json';
  else if (term.kind === 'node') definition['@type'] = '@id';
  else if (term.type !== undefined) definition['@type'] = compact(term.type);
  if (term.container !== undefined && term.kind !== 'json') definition['@container'] = term.container;
  if (term.kind === 'node' && term.scope !== undefined) {
    const terms = [...hoistSameKeyScope(term.key, term.scope).values()];
    if (term.scopeMode === 'override') {
      if (terms.length > 0) definition['@context'] = withVocabulary([contextObject(terms, prefixes)], vocabulary);
    } else {
      definition['@context'] = withVocabulary(
        [null, contextObject(terms, prefixes, vocabulary === undefined ? {} : { vocabulary })],
        vocabulary,
      );
    }
  }
  return definition;
}

/**
 * A scoped context whose keys with a `/` made it declare another `@vocab` (see vocabularyFor) gets `vocabulary` back in
 * a context of its own after it: JSON-LD checks a term's IRI against the `@vocab` of the context that defines it only,
 * so those terms keep their IRIs while keys without a term still expand into `vocabulary`. One context stays one.
 */
function withVocabulary(contexts: Array<JsonObject | null>, vocabulary: string | undefined): JsonValue {
  const last = contexts[contexts.length - 1]!;
  const restored =
    vocabulary !== undefined && last['@vocab'] !== undefined && last['@vocab'] !== vocabulary
      ? [...contexts, { '@vocab': vocabulary }]
      : contexts;
  return restored.length === 1 ? restored[0]! : restored;
}

/**
 * jsonld.js 9 applies a property-scoped context twice when the scope it opens defines a term of the same key with a
 * scoped context of its own (2025-11-25's tool-result `content` inside sampling's `content`): the inner term's
 * context then also replaces the outer value's, and every key of the outer value is dropped. So such an inner term
 * is written without a scoped context, and its scope's terms join the enclosing scope instead (they never give a
 * key two meanings: merging is refused where they would). The graph of valid data is the same.
 */
function hoistSameKeyScope(key: string, scope: TermMap): TermMap {
  const inner = scope.get(key);
  if (inner?.kind !== 'node' || inner.scope === undefined || inner.scopeMode === 'override') return scope;
  const rest: TermMap = new Map(scope);
  rest.delete(key);
  const { scope: innerScope, ...withoutScope } = inner;
  const merged = mergeTermMaps(rest, innerScope);
  merged.set(key, withoutScope);
  return merged;
}

/**
 * A context object: `@comment` and `@version` (when asked), `@vocab`, the prefixes its terms use (sorted), then the
 * terms (sorted by key).
 */
export function contextObject(
  terms: readonly TermModel[],
  prefixes: PrefixMap,
  options: ContextOptions = {},
): JsonObject {
  const used = new Set<string>();
  const definitions = new Map<string, JsonValue>();
  const unmapped = new Set(options.unmapped ?? []);
  for (const term of terms)
    definitions.set(term.key, unmapped.has(term.key) ? null : termDefinition(term, prefixes, used, options.vocabulary));
  const context: JsonObject = {};
  if (options.comment !== undefined) context['@comment'] = options.comment;
  if (options.version) context['@version'] = jsonLdVersion;
  const vocabulary = vocabularyFor(terms) ?? options.vocabulary;
  if (vocabulary !== undefined) context['@vocab'] = vocabulary;
  for (const prefix of [...used].sort(byCodePoint)) {
    if (definitions.has(prefix)) {
      const clash = terms.find((t) => t.key === prefix)!;
      throw McpLdError.of('context.term-is-prefix', {
        detail: `key "${prefix}" (annotated at ${clash.source}) has the name of a declared prefix that the same context needs`,
      });
    }
    context[prefix] = prefixes[prefix]!;
  }
  for (const key of [...definitions.keys()].sort(byCodePoint)) context[key] = definitions.get(key)!;
  return context;
}

/**
 * JSON-LD 1.1 lets a key with a `/` (`io.modelcontextprotocol/clientInfo`, 2026-07-28's `_meta` keys) be a term only
 * when its IRI is the key expanded against the context's `@vocab`: such terms are annotated `mcp:<key>`, and their
 * context declares that vocabulary. Undefined when no term needs one; an error when they would need two.
 */
function vocabularyFor(terms: readonly TermModel[]): string | undefined {
  let vocabulary: string | undefined;
  for (const term of terms) {
    if (!term.key.includes('/') || term.kind === 'alias') continue;
    const base = term.iri.endsWith(term.key) ? term.iri.slice(0, -term.key.length) : undefined;
    if (base === undefined || base === '' || (vocabulary !== undefined && base !== vocabulary)) {
      throw McpLdError.of('context.slash-term', {
        detail: `key "${term.key}" (annotated at ${term.source}) has a "/", so JSON-LD 1.1 accepts it as a term only if its IRI is the key appended to the context's @vocab; annotate it <namespace>${term.key}, with one namespace for every such key of the object`,
      });
    }
    vocabulary = base;
  }
  return vocabulary;
}

/** A context document, written as 2-space JSON with a trailing newline. */
export function contextDocument(context: JsonObject): JsonObject {
  return { '@context': context };
}

export function serializeContext(document: JsonObject): string {
  return JSON.stringify(document, null, 2) + '\n';
}
