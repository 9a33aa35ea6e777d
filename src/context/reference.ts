// The OGC building-block context (a copy bundled under schemas/reference/, never fetched): the merged context
// prefers its meaning of a key where the effective schema gives the key that meaning too. Only its top-level
// term → IRI table is read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { schemasDir } from '../core/paths.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { expandIri } from './iris.js';

export const referenceContextFile = path.join(schemasDir, 'reference', 'ogc-bblocks-mcp-context.jsonld');

/** Top-level term → expanded IRI of a context document (prefix declarations and keywords left out). */
export function referenceTerms(document: JsonObject): Map<string, string> {
  const context = document['@context'];
  const terms = new Map<string, string>();
  if (!isJsonObject(context)) return terms;
  const prefixes: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (typeof value === 'string' && /[#/:]$/.test(value)) prefixes[key] = value;
  }
  for (const [key, value] of Object.entries(context)) {
    if (key.startsWith('@') || key in prefixes) continue;
    const id =
      typeof value === 'string'
        ? value
        : isJsonObject(value) && typeof value['@id'] === 'string'
          ? value['@id']
          : undefined;
    if (id !== undefined) terms.set(key, expandIri(id, prefixes));
  }
  return terms;
}

let cached: Map<string, string> | undefined;

export function loadReferenceTerms(file: string = referenceContextFile): Map<string, string> {
  if (file === referenceContextFile && cached) return cached;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw McpLdError.of('context.reference-missing', {
      detail: `cannot read the OGC reference context ${file}: ${(error as Error).message}`,
    });
  }
  const terms = isJsonObject(document) ? referenceTerms(document) : new Map<string, string>();
  if (file === referenceContextFile) cached = terms;
  return terms;
}
