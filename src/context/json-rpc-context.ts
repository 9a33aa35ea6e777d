// `json-rpc.jsonld`: the JSON-RPC 2.0 vocabulary on its own: the envelope's terms (jsonrpc, id, method, params,
// result, error with its scoped code/message/data) as the JSON-RPC schema annotates them, and its extra terms.
import { isJsonObject, type JsonObject } from '../core/json.js';
import type { SchemaIndex } from '../schema/index.js';
import { contextDocument, contextObject } from './term-definitions.js';
import { TermWalker, extraTerms, mergeTermMaps, type TermMap } from './terms.js';
import type { PrefixMap } from './iris.js';

/** The prefixes the JSON-RPC schema declares itself. */
function jsonRpcPrefixes(index: SchemaIndex): PrefixMap {
  const declared = index.documents['json-rpc']['x-jsonld-prefixes'];
  const prefixes: Record<string, string> = {};
  if (isJsonObject(declared))
    for (const [name, iri] of Object.entries(declared)) if (typeof iri === 'string') prefixes[name] = iri;
  return prefixes;
}

/** The terms of every message shape the JSON-RPC schema's root admits (requests, notifications, responses). */
export function jsonRpcEnvelopeTerms(index: SchemaIndex, prefixes: PrefixMap = jsonRpcPrefixes(index)): TermMap {
  const walker = new TermWalker(index.resolver, prefixes);
  return walker.objectTerms(index.resolver.at('json-rpc', ''));
}

export function jsonRpcContext(index: SchemaIndex): JsonObject {
  const prefixes = jsonRpcPrefixes(index);
  let terms = jsonRpcEnvelopeTerms(index, prefixes);
  terms = mergeTermMaps(
    terms,
    new Map(extraTerms('json-rpc', index.documents['json-rpc'], prefixes).map((t) => [t.key, t])),
  );
  return contextDocument(contextObject([...terms.values()], prefixes, { version: true }));
}
