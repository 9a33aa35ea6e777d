// Generates every context document (messages/<Definition>.jsonld, json-rpc.jsonld, mcp.jsonld) from the schema
// index, writes them into a directory, and compares a directory with what would be generated (drift check). The
// package's contexts are the seed version's at the top (2025-06-18, as they have always been) and every protocol
// version's under `<version>/`.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../core/json.js';
import { loadSchema, protocolVersions, type ProtocolVersion, type SchemaIndex } from '../schema/index.js';
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
    ...contextDefinitions(index).map((message): [string, JsonObject] => [
      `${messagesDir}/${message.name}.jsonld`,
      messageContext(index, message, walker),
    ]),
  ];
  return documents
    .map(([file, document]) => ({ path: file, document, text: serializeContext(document) }))
    .sort((a, b) => byCodePoint(a.path, b.path));
}

/** One protocol version's contexts, under `<version>/`. */
export function buildVersionContexts(version: ProtocolVersion, options: BuildOptions = {}): GeneratedContext[] {
  return buildContexts(loadSchema({ protocol: version }), options).map((context) => ({
    ...context,
    path: `${version}/${context.path}`,
  }));
}

/** Every context of the package: the seed version's at the top, then each protocol version's under `<version>/`. */
export function buildAllContexts(options: BuildOptions = {}): GeneratedContext[] {
  return [
    ...buildContexts(loadSchema(), options),
    ...protocolVersions.flatMap((version) => buildVersionContexts(version, options)),
  ];
}

/**
 * The folders `contexts` are written to (the top, messages/, and the same per version): the only ones checked or
 * cleaned.
 */
function contextFolders(contexts: readonly GeneratedContext[]): string[] {
  const folders = new Set<string>();
  for (const context of contexts)
    folders.add(path.posix.dirname(context.path) === '.' ? '' : path.posix.dirname(context.path));
  return [...folders];
}

/** The `.jsonld` files in `folders` of `dir` (relative paths, sorted). */
function existingContextFiles(dir: string, folders: readonly string[]): string[] {
  const files: string[] = [];
  for (const sub of folders) {
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

/** Writes every context of `index` into `dir` (created if needed) and removes stale message contexts. */
export function writeContexts(dir: string, index: SchemaIndex = loadSchema(), options: BuildOptions = {}): WriteResult {
  return writeGeneratedContexts(dir, buildContexts(index, options));
}

/** Writes `contexts` into `dir` and removes stale message contexts from the folders they are written to. */
export function writeGeneratedContexts(dir: string, contexts: readonly GeneratedContext[]): WriteResult {
  const written: string[] = [];
  for (const context of contexts) {
    const file = path.join(dir, ...context.path.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, context.text);
    written.push(file);
  }
  const expected = new Set(contexts.map((c) => c.path));
  const removed: string[] = [];
  for (const relative of existingContextFiles(dir, contextFolders(contexts))) {
    if (!relative.split('/').includes(messagesDir) || expected.has(relative)) continue;
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
export function checkContexts(
  dir: string,
  index: SchemaIndex = loadSchema(),
  options: BuildOptions = {},
): ContextDrift[] {
  return checkGeneratedContexts(dir, buildContexts(index, options));
}

/** How `dir` differs from `contexts`, in the folders they are written to. */
export function checkGeneratedContexts(dir: string, contexts: readonly GeneratedContext[]): ContextDrift[] {
  const drift: ContextDrift[] = [];
  for (const context of contexts) {
    const file = path.join(dir, ...context.path.split('/'));
    if (!existsSync(file)) drift.push({ path: context.path, problem: 'missing' });
    else if (readFileSync(file, 'utf8') !== context.text) drift.push({ path: context.path, problem: 'differs' });
  }
  const expected = new Set(contexts.map((c) => c.path));
  for (const relative of existingContextFiles(dir, contextFolders(contexts)))
    if (!expected.has(relative)) drift.push({ path: relative, problem: 'unexpected' });
  return drift.sort((a, b) => byCodePoint(a.path, b.path));
}
