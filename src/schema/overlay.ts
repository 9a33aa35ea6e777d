// The overlay: explicit, commented corrections applied to the seed schemas at load time. The seed files stay
// byte for byte as published; every deviation from them is one entry here, with the reason it exists.
import {
  cloneJson,
  getAtPointer,
  isJsonObject,
  joinPointer,
  splitPointer,
  type JsonObject,
  type JsonValue,
} from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { readYamlDocument, overlayFile, type DocumentId, type SeedDocuments } from './documents.js';
import { schemasDir } from '../core/paths.js';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * One correction. `at` is a JSON pointer into document `in` (default `mcp`); a `*` token in it matches every key
 * at that point (see `correctionTargets`), and then the correction applies wherever the whole pointer exists.
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
  return McpLdError.of('schema.overlay-invalid', {
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
    if (typeof why !== 'string' || why.trim() === '')
      throw overlayError(index, '`why` must say why the correction exists');
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

/**
 * The concrete pointers a correction's `at` names in `document`. Without a `*` token that is `at` itself (whether
 * or not it exists yet). A `*` token matches every key of the object (every index of the array) at that point, and
 * only the expansions that lead to an existing member are kept: `/definitions/*` followed by `/properties/params`
 * names the `params` of every definition that has one.
 */
export function correctionTargets(document: JsonValue, at: string): string[] {
  const tokens = splitPointer(at);
  if (!tokens.includes('*')) return [at];
  const matches: string[] = [];
  const expand = (value: JsonValue, index: number, pointer: string): void => {
    if (index === tokens.length) {
      matches.push(pointer);
      return;
    }
    const token = tokens[index]!;
    const keys = token === '*' ? childKeys(value) : childKeys(value).filter((key) => key === token);
    for (const key of keys) expand(childAt(value, key)!, index + 1, joinPointer(pointer, key));
  };
  expand(document, 0, '');
  return matches;
}

function childKeys(value: JsonValue): string[] {
  if (Array.isArray(value)) return value.map((_, index) => String(index));
  return isJsonObject(value) ? Object.keys(value) : [];
}

function childAt(value: JsonValue, key: string): JsonValue | undefined {
  if (Array.isArray(value)) return value[Number(key)];
  return isJsonObject(value) ? value[key] : undefined;
}

/**
 * Applies the overlay to deep copies of the seed documents, in order. A correction whose target is missing is an
 * error, and so is a wildcard correction that matches nothing.
 */
export function applyOverlay(seed: SeedDocuments, overlay: Overlay): SeedDocuments {
  const result: SeedDocuments = { mcp: cloneJson(seed.mcp), 'json-rpc': cloneJson(seed['json-rpc']) };
  overlay.corrections.forEach((correction, index) => {
    const document = result[correction.in];
    if (splitPointer(correction.at).length === 0)
      throw overlayError(index, 'cannot correct the document root as a whole');
    const targets = correctionTargets(document, correction.at);
    if (targets.length === 0)
      throw overlayError(index, `${correction.at} matches nothing in the ${correction.in} schema`);
    for (const target of targets) applyCorrection(document, target, correction, index);
  });
  return result;
}

function applyCorrection(document: JsonObject, at: string, correction: Correction, index: number): void {
  const tokens = splitPointer(at);
  const key = tokens[tokens.length - 1]!;
  const parent = getAtPointer(document, at.slice(0, at.lastIndexOf('/')));
  if (correction.remove) {
    if (!isJsonObject(parent)) throw overlayError(index, `${at}: its parent is not an object in the seed`);
    if (!(key in parent)) throw overlayError(index, `${at} does not exist in the seed`);
    delete parent[key];
    return;
  }
  let target = getAtPointer(document, at);
  if (target === undefined && correction.set) {
    if (!isJsonObject(parent)) throw overlayError(index, `${at}: its parent is not an object in the seed`);
    target = parent[key] = {};
  }
  if (!isJsonObject(target)) throw overlayError(index, `${at} is not an object in the seed`);
  for (const name of correction.unset ?? []) delete target[name];
  Object.assign(target, cloneJson(correction.set ?? {}));
}
