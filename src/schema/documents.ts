// Loads the schema documents from schemas/ (the untouched seed, the JSON-RPC schema it references, the overlay)
// and maps the one remote URL the seed references to its local copy. Nothing is ever fetched.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { schemasDir } from '../core/paths.js';
import { readCached, sha256, writeCached } from '../core/cache.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';

export type DocumentId = 'mcp' | 'json-rpc';

/** The seed's base URI (it declares none; this names the local file) and the JSON-RPC schema's published URL. */
export const documentUris: Record<DocumentId, string> = {
  mcp: 'https://w3id.org/mcp-ld/schemas/mcp-2025-06-18.annotated.yaml',
  'json-rpc': 'https://ogcincubator.github.io/modelcontextprotocol/build/annotated/json-rpc/schema.yaml',
};

export const documentFiles: Record<DocumentId, string> = {
  mcp: 'mcp-2025-06-18.annotated.yaml',
  'json-rpc': 'json-rpc.annotated.yaml',
};

export const overlayFile = 'overlay.yaml';

/** The MCP protocol version the seed schema describes. */
export const protocolVersion = '2025-06-18';

export function documentForUri(uri: string): DocumentId | undefined {
  return (Object.keys(documentUris) as DocumentId[]).find((id) => documentUris[id] === uri);
}

/** Parsed schemas, as JSON keyed by the SHA-256 of their YAML text: parsing the seed's YAML costs ~20x its JSON. */
function parseYamlCached(text: string): unknown {
  const name = `${sha256(text)}.json`;
  const cached = readCached(name);
  if (cached !== undefined) {
    try {
      return JSON.parse(cached);
    } catch {
      // a damaged cache file: parse again
    }
  }
  // The YAML parser loads only when the cache misses (it is most of the start-up time otherwise).
  const { parse: parseYaml } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const parsed: unknown = parseYaml(text, { maxAliasCount: 100 });
  writeCached(name, JSON.stringify(parsed));
  return parsed;
}

export function readYamlDocument(file: string, dir: string = schemasDir): JsonObject {
  const fullPath = path.join(dir, file);
  let text: string;
  try {
    text = readFileSync(fullPath, 'utf8');
  } catch (error) {
    throw McpLdError.of('schema.missing', {
      detail: `cannot read ${fullPath}: ${(error as Error).message}`,
    });
  }
  const parsed = parseYamlCached(text);
  if (!isJsonObject(parsed)) {
    throw McpLdError.of('schema.not-an-object', {
      detail: `${fullPath} does not hold a YAML mapping at its root`,
    });
  }
  return parsed;
}

/** A JSON schema file of schemas/ (an official schema, an extension's), which must hold a JSON object. */
export function readJsonDocument(file: string, dir: string = schemasDir): JsonObject {
  const fullPath = path.join(dir, file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(fullPath, 'utf8'));
  } catch (error) {
    throw McpLdError.of('schema.missing', { detail: `cannot read ${fullPath}: ${(error as Error).message}` });
  }
  if (!isJsonObject(parsed))
    throw McpLdError.of('schema.not-an-object', { detail: `${fullPath} does not hold a JSON object` });
  return parsed;
}

export interface SeedDocuments {
  mcp: JsonObject;
  'json-rpc': JsonObject;
}

/** The two schema documents exactly as shipped, before the overlay. */
export function loadSeedDocuments(dir: string = schemasDir): SeedDocuments {
  return {
    mcp: readYamlDocument(documentFiles.mcp, dir),
    'json-rpc': readYamlDocument(documentFiles['json-rpc'], dir),
  };
}
