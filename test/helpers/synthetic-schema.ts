// Builds small in-memory schema documents (an MCP-like document and a JSON-RPC-like one) for tests that must not
// depend on the shipped schemas: rules are checked on made-up defects, the overlay on made-up targets.
import type { JsonObject } from '../../src/core/json.js';
import type { SeedDocuments } from '../../src/schema/index.js';

export const ex = 'http://example.org/ns#';
export const xsd = 'http://www.w3.org/2001/XMLSchema#';

/** Seed documents with `definitions` (and optionally extra terms) in the MCP slot and a tiny JSON-RPC document. */
export function syntheticSeed(
  definitions: JsonObject,
  options: { extraTerms?: JsonObject; jsonRpc?: JsonObject; prefixes?: JsonObject } = {},
): SeedDocuments {
  return {
    mcp: {
      definitions,
      'x-jsonld-extra-terms': options.extraTerms ?? {},
      'x-jsonld-prefixes': options.prefixes ?? { ex, xsd },
    },
    'json-rpc': options.jsonRpc ?? { $defs: {}, 'x-jsonld-prefixes': { xsd } },
  };
}

/** A property annotated with `id` (in the `ex:` namespace) and, when given, `type` and `container`. */
export function annotated(schema: JsonObject, id: string, type?: string, container?: string): JsonObject {
  const property: JsonObject = { ...schema, 'x-jsonld-id': ex + id };
  if (type !== undefined) property['x-jsonld-type'] = type;
  if (container !== undefined) property['x-jsonld-container'] = container;
  return property;
}
