// Generates every context document (messages/<Definition>.jsonld, json-rpc.jsonld, mcp.jsonld) from the schema
// index, writes them into a directory, and compares a directory with what would be generated (drift check).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../core/json.js';
import { loadSchema, type SchemaIndex } from '../schema/index.js';
import { jsonRpcContext } from './json-rpc-context.js';
import { mergedContext } from './merged-context.js';
import { contextDefinitions, messageContext, termWalker } from './message-contexts.js';
import { loadReferenceTerms } from './reference.js';
import { byCodePoint, serializeContext } from './term-definitions.js';

export const messagesDir = 'messages';

export interface GeneratedContext {
  /** Path relative to the contexts directory, with `/` separators, e.g. `messages/CallToolRequest.jsonld`. */
  path: string;
  document: JsonObject;
  /** The file's exact text: 2-space JSON and a trailing newline. */
  text: string;
}

export interface BuildOptions {
  /** Top-level term → IRI of the OGC reference context; the bundled copy by default. */
  reference?: ReadonlyMap<string, string>;
}

/** Every context, sorted by path. Deterministic: the same schema gives the same bytes. */
export function buildContexts(index: SchemaIndex, options: BuildOptions = {}): GeneratedContext[] {
  const reference = options.reference ?? loadReferenceTerms();
  const walker = termWalker(index);
  const documents: Array<[string, JsonObject]> = [
    ['json-rpc.jsonld', jsonRpcContext(index)],
    ['mcp.jsonld', mergedContext(index, { reference })],
    ...contextDefinitions(index).map((message): [string, JsonObject] => [`${messagesDir}/${message.name}.jsonld`, messageContext(index, message, walker)]),
  ];
  return documents
    .map(([file, document]) => ({ path: file, document, text: serializeContext(document) }))
    .sort((a, b) => byCodePoint(a.path, b.path));
}

/** The `.jsonld` files under `dir` (top level and messages/), relative, sorted. */
function existingContextFiles(dir: string): string[] {
  const files: string[] = [];
  for (const sub of ['', messagesDir]) {
    const full = path.join(dir, sub);
    if (!existsSync(full)) continue;
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.jsonld')) files.push(sub ? `${sub}/${entry.name}` : entry.name);
    }
  }
  return files.sort(byCodePoint);
}

export interface WriteResult {
  /** Absolute paths of the files written, in path order. */
  written: string[];
  /** Absolute paths of stale messages/*.jsonld files removed (definitions the schema no longer has). */
  removed: string[];
}

/** Writes every context into `dir` (created if needed) and removes stale message contexts. */
export function writeContexts(dir: string, index: SchemaIndex = loadSchema(), options: BuildOptions = {}): WriteResult {
  const contexts = buildContexts(index, options);
  mkdirSync(path.join(dir, messagesDir), { recursive: true });
  const written: string[] = [];
  for (const context of contexts) {
    const file = path.join(dir, ...context.path.split('/'));
    writeFileSync(file, context.text);
    written.push(file);
  }
  const expected = new Set(contexts.map((c) => c.path));
  const removed: string[] = [];
  for (const relative of existingContextFiles(dir)) {
    if (!relative.startsWith(`${messagesDir}/`) || expected.has(relative)) continue;
    const file = path.join(dir, ...relative.split('/'));
    rmSync(file);
    removed.push(file);
  }
  return { written, removed };
}

export interface ContextDrift {
  path: string;
  problem: 'differs' | 'missing' | 'unexpected';
}

/** How `dir` differs from what would be generated: changed, missing and unexpected `.jsonld` files. */
export function checkContexts(dir: string, index: SchemaIndex = loadSchema(), options: BuildOptions = {}): ContextDrift[] {
  const contexts = buildContexts(index, options);
  const drift: ContextDrift[] = [];
  for (const context of contexts) {
    const file = path.join(dir, ...context.path.split('/'));
    if (!existsSync(file)) drift.push({ path: context.path, problem: 'missing' });
    else if (readFileSync(file, 'utf8') !== context.text) drift.push({ path: context.path, problem: 'differs' });
  }
  const expected = new Set(contexts.map((c) => c.path));
  for (const relative of existingContextFiles(dir)) if (!expected.has(relative)) drift.push({ path: relative, problem: 'unexpected' });
  return drift.sort((a, b) => byCodePoint(a.path, b.path));
}
