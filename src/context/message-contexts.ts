// One context per message definition (`messages/<Definition>.jsonld`): the JSON-RPC envelope's terms, and
// `params` (requests, notifications) or `result` + `error` (results) scoped to exactly that definition, so
// `tools`, `content`, `type`, `data`, `arguments`, `required` mean in each message what its own schema says.
// Besides the messages of known methods, the generic bases (`Request`, `Notification`, `Result`, …) get one too:
// they describe messages of methods the schema does not know.
import { isJsonObject, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { envelopeKind, jsonRpcEnvelope, type MessageDefinition, type SchemaIndex } from '../schema/index.js';
import { contextDocument, contextObject } from './term-definitions.js';
import { TermWalker, locationId, type TermMap, type TermModel } from './terms.js';
import { ns } from '../rdf/vocabulary.js';

/**
 * The definitions that get a message context: every message of the index, then every other definition that
 * builds on a JSON-RPC `#Request`, `#Notification` or `#Response` and is not a union of others (`anyOf`/`oneOf`).
 */
export function contextDefinitions(index: SchemaIndex): MessageDefinition[] {
  const definitions: MessageDefinition[] = [...index.messages];
  const known = new Set(definitions.map((d) => d.name));
  for (const name of index.definitionNames) {
    if (known.has(name)) continue;
    const location = index.resolver.follow(index.definition(name));
    if (location.document !== 'mcp' || 'anyOf' in location.node || 'oneOf' in location.node) continue;
    const kind = envelopeKind(jsonRpcEnvelope(index.resolver, location));
    if (kind !== undefined && isJsonObject(location.node['properties'])) definitions.push({ name, kind, senders: [] });
  }
  return definitions;
}

export function termWalker(index: SchemaIndex): TermWalker {
  return new TermWalker(index.resolver, index.prefixes);
}

/**
 * The terms of a whole message of definition `message`.
 * - A request or notification definition describes the whole message: its `allOf` brings the JSON-RPC terms
 *   (`jsonrpc`, `id`, `method`), and its own `params` annotation overrides the generic JSON-RPC one.
 * - A result definition describes the `result` object: the message's terms are the JSON-RPC `#Response`'s
 *   (`jsonrpc`, `id`, `result`, `error`), and `result` keeps the IRI JSON-RPC gives it but becomes a node scoped
 *   to the result definition's own properties (JSON-RPC alone can only call it opaque JSON).
 */
export function messageTerms(index: SchemaIndex, message: MessageDefinition, walker = termWalker(index)): TermMap {
  const location = index.definition(message.name);
  if (message.kind !== 'result') return walker.objectTerms(location);
  const envelope = jsonRpcEnvelope(index.resolver, location);
  const terms = envelope === undefined ? undefined : walker.objectTerms(envelope);
  const result = terms?.get('result');
  if (terms === undefined || result === undefined) {
    throw McpLdError.of('context.no-result-term', {
      detail: `${locationId(location)} does not build on a JSON-RPC response that annotates \`result\``,
    });
  }
  const node: TermModel = {
    key: 'result',
    iri: result.iri,
    kind: 'node',
    scope: walker.objectTerms(location, { exclude: 'json-rpc' }),
    source: locationId(location),
  };
  terms.set('result', node);
  return terms;
}

/**
 * The context document `messages/<name>.jsonld`. It is portable: any JSON-LD 1.1 processor applying it to a raw
 * message of its definition gives the body triples mcp-ld's reference engine gives, but for what `portabilityNote`
 * says JSON-LD cannot express (test/conformance/portable-contexts.test.ts holds jsonld.js and rdflib to it). Keys
 * the schema does not know expand into the extension namespace (`@vocab`), as mcp-ld keeps them; `id` is unmapped,
 * since its node cannot be made from the raw JSON.
 */
export function messageContext(index: SchemaIndex, message: MessageDefinition, walker = termWalker(index)): JsonObject {
  const terms = [...messageTerms(index, message, walker).values()];
  return contextDocument(
    contextObject(terms, index.prefixes, {
      version: true,
      vocabulary: ns.mldx,
      unmapped: ['id'],
      comment: portabilityNote,
    }),
  );
}

/** What a message context cannot say, as its `@comment` (the README's "Portable contexts" says the same). */
const portabilityNote =
  'Applied to a raw MCP message of its definition by any JSON-LD 1.1 processor, this context gives the triples mcp-ld lifts from the message body, except what JSON-LD cannot express from the JSON alone: ' +
  'mcp-ld names the message and each of its objects and list cells with IRIs minted from the session and the message order (a processor makes blank nodes); ' +
  'it types nested objects by their schema class (rdf:type); ' +
  '"id" is left unmapped here: mcp-ld links the message to a request-id node scoped by session, direction and JSON type (jrpc:hasId). ' +
  `Keys the schema does not know expand into ${ns.mldx} (@vocab), as mcp-ld keeps them.`;
