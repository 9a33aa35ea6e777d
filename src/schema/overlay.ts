// The overlay: explicit, commented corrections applied to the seed schemas at load time. The seed files stay
// byte for byte as published; every deviation from them is one entry here, with the reason it exists.
import { cloneJson, getAtPointer, isJsonObject, splitPointer, type JsonObject, type JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { readYamlDocument, overlayFile, type DocumentId, type SeedDocuments } from './documents.js';
import { schemasDir } from '../core/paths.js';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * One correction. `at` is a JSON pointer into document `in` (default `mcp`).
 * - `set`: keys merged into the object at `at` (the object is created when only its last token is missing);
 * - `unset`: keys removed from the object at `at`;
 * - `remove: true`: the member named by `at` is removed from its parent.
 */
export interface Correction {
  at: string;
  in: DocumentId;
  why: string;
  set?: JsonObject;
  unset?: string[];
  remove?: boolean;
}

export interface Overlay {
  corrections: Correction[];
}

function overlayError(index: number, detail: string): McpLdError {
  return new McpLdError({
    code: 'schema.overlay-invalid',
    status: 500,
    title: 'Invalid schema overlay',
    detail: `correction ${index + 1}: ${detail}`,
    pointer: `/corrections/${index}`,
  });
}

export function parseOverlay(document: JsonObject): Overlay {
  const list = document['corrections'] ?? [];
  if (!Array.isArray(list)) throw overlayError(-1, '`corrections` must be a list');
  const corrections = list.map((entry, index): Correction => {
    if (!isJsonObject(entry)) throw overlayError(index, 'must be a mapping');
    const { at, why, set, unset, remove } = entry;
    const target = entry['in'] ?? 'mcp';
    if (typeof at !== 'string') throw overlayError(index, '`at` must be a JSON pointer string');
    if (typeof why !== 'string' || why.trim() === '') throw overlayError(index, '`why` must say why the correction exists');
    if (target !== 'mcp' && target !== 'json-rpc') throw overlayError(index, '`in` must be `mcp` or `json-rpc`');
    if (set !== undefined && !isJsonObject(set)) throw overlayError(index, '`set` must be a mapping');
    if (unset !== undefined && !(Array.isArray(unset) && unset.every((k) => typeof k === 'string')))
      throw overlayError(index, '`unset` must be a list of keys');
    if (remove !== undefined && remove !== true) throw overlayError(index, '`remove` can only be `true`');
    if (set === undefined && unset === undefined && remove === undefined)
      throw overlayError(index, 'needs one of `set`, `unset`, `remove`');
    const correction: Correction = { at, in: target, why: why.trim() };
    if (set !== undefined) correction.set = set;
    if (unset !== undefined) correction.unset = unset as string[];
    if (remove !== undefined) correction.remove = true;
    return correction;
  });
  return { corrections };
}

export function loadOverlay(dir: string = schemasDir): Overlay {
  if (!existsSync(path.join(dir, overlayFile))) return { corrections: [] };
  return parseOverlay(readYamlDocument(overlayFile, dir));
}

/** Applies the overlay to deep copies of the seed documents. A correction whose target is missing is an error. */
export function applyOverlay(seed: SeedDocuments, overlay: Overlay): SeedDocuments {
  const result: SeedDocuments = { mcp: cloneJson(seed.mcp), 'json-rpc': cloneJson(seed['json-rpc']) };
  overlay.corrections.forEach((correction, index) => {
    const document = result[correction.in];
    const tokens = splitPointer(correction.at);
    if (tokens.length === 0) throw overlayError(index, 'cannot correct the document root as a whole');
    const parentPointer = correction.at.slice(0, correction.at.lastIndexOf('/'));
    const parent = getAtPointer(document, parentPointer);
    const key = tokens[tokens.length - 1]!;
    if (!isJsonObject(parent)) throw overlayError(index, `${correction.at}: its parent is not an object in the seed`);
    if (correction.remove) {
      if (!(key in parent)) throw overlayError(index, `${correction.at} does not exist in the seed`);
      delete parent[key];
      return;
    }
    let target: JsonValue | undefined = parent[key];
    if (target === undefined && correction.set) target = parent[key] = {};
    if (!isJsonObject(target)) throw overlayError(index, `${correction.at} is not an object in the seed`);
    for (const name of correction.unset ?? []) delete target[name];
    Object.assign(target, cloneJson(correction.set ?? {}));
  });
  return result;
}
