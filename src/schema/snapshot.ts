// A snapshot of what loading the packaged schemas derives — the effective documents (seed + overlay), their anchor
// table and the classified messages — kept as JSON in the cache (see core/cache.ts), keyed by the bytes of the
// schema files and the code of this stage, so that a start-up reads it instead of deriving it all again.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeVersion, contentKey, moduleFiles, readCached, writeCached } from '../core/cache.js';
import { isJsonObject } from '../core/json.js';
import { documentFiles, overlayFile, type SeedDocuments } from './documents.js';
import type { Overlay } from './overlay.js';
import type { MessageDefinition } from './messages.js';
import type { Excuse } from './version-annotations.js';
import { annotationFile } from './version-annotations.js';
import { officialSchemaFile } from './version-schema.js';
import { extensionFiles } from './extensions.js';
import { carriedFrom, type ProtocolVersion } from './versions.js';

/** What is derived from the effective documents, when a snapshot already holds it (see snapshot.ts). */
export interface DerivedSchema {
  /** The key naming the effective documents (see SchemaIndex.contentKey). */
  contentKey: string;
  /** The resolver's anchor table. */
  anchors: [string, string][];
  messages: MessageDefinition[];
}

/** What a schema index knows of the protocol version it describes. */
export interface VersionFacts {
  version: ProtocolVersion;
  /** For each request, the result definitions its official result envelope allows, when it names more than one. */
  resultAlternatives: Record<string, string[]>;
  /** Properties the version's annotation file leaves unannotated on purpose, with why. */
  unannotated: Excuse[];
}

interface SchemaSnapshot extends DerivedSchema {
  /** The documents after the overlay (when it applies). */
  documents: SeedDocuments;
  overlay: Overlay;
  /** What a protocol version's index knows of it (absent: the seed's version). */
  versionFacts?: VersionFacts;
}

const here = path.dirname(fileURLToPath(import.meta.url));
let schemaCode: string | undefined;

/**
 * What identifies the code that derives the snapshot — this stage's modules and the JSON helpers they share — and
 * so part of the key of anything derived from a schema index (the snapshot, lifting plans).
 */
export function schemaCodeVersion(): string {
  return (schemaCode ??= codeVersion([...moduleFiles(here), path.join(here, '..', 'core', 'json.js')]));
}

/**
 * The key of the snapshot of the schemas in `dir` (with or without the overlay): a hash of the files' bytes and of
 * the code that derives it. Undefined when a seed file cannot be read: loading the schemas then reports it.
 */
export function snapshotKey(dir: string, useOverlay: boolean): string | undefined {
  const read = (file: string): Buffer | undefined => {
    try {
      return readFileSync(path.join(dir, file));
    } catch {
      return undefined;
    }
  };
  const mcp = read(documentFiles.mcp);
  const jsonRpc = read(documentFiles['json-rpc']);
  if (mcp === undefined || jsonRpc === undefined) return undefined;
  const overlay = useOverlay ? read(overlayFile) : undefined;
  // A missing overlay file means no corrections: it keys differently from an empty one.
  const overlayState = !useOverlay ? 'overlay not applied' : overlay === undefined ? 'no overlay file' : 'overlay file';
  return contentKey([mcp, jsonRpc, overlayState, overlay ?? '', schemaCodeVersion()]);
}

/**
 * The key of the snapshot of protocol version `version`'s schema: the bytes of every file it is built from (the seed,
 * the JSON-RPC schema and the overlay, then the official schema and annotation file of each version on the way from
 * the seed to it, with their extensions' schemas) and the code of this stage.
 */
export function versionSnapshotKey(dir: string, version: ProtocolVersion): string | undefined {
  const parts: (string | Buffer)[] = [version, schemaCodeVersion()];
  for (const file of [documentFiles.mcp, documentFiles['json-rpc'], overlayFile]) {
    try {
      parts.push(file, readFileSync(path.join(dir, file)));
    } catch {
      return undefined;
    }
  }
  for (
    let step: ProtocolVersion | undefined = version;
    step !== undefined && carriedFrom(step) !== undefined;
    step = carriedFrom(step)
  ) {
    for (const file of [officialSchemaFile(step), ...extensionFiles(step), annotationFile(step)]) {
      let bytes: Buffer | string;
      try {
        bytes = readFileSync(path.join(dir, file));
      } catch {
        bytes = 'no such file';
      }
      parts.push(file, bytes);
    }
  }
  return contentKey(parts);
}

/** The snapshot is two files: what start-up needs, and the documents, which it need not parse. */
const snapshotFile = (key: string): string => `schema-${key}.json`;
const documentsFile = (key: string): string => `schema-${key}.documents.json`;

/** The snapshot stored under `key`, without its documents; undefined when there is none (or it is damaged). */
export function readSnapshot(key: string): Omit<SchemaSnapshot, 'documents'> | undefined {
  const snapshot = parseCached(snapshotFile(key));
  return isJsonObject(snapshot) && Array.isArray(snapshot['messages']) && Array.isArray(snapshot['anchors'])
    ? (snapshot as unknown as Omit<SchemaSnapshot, 'documents'>)
    : undefined;
}

/** The documents of the snapshot stored under `key`, or undefined when they are not there (or damaged). */
export function readSnapshotDocuments(key: string): SeedDocuments | undefined {
  const documents = parseCached(documentsFile(key));
  return isJsonObject(documents) && isJsonObject(documents['mcp']) && isJsonObject(documents['json-rpc'])
    ? (documents as unknown as SeedDocuments)
    : undefined;
}

function parseCached(name: string): unknown {
  const text = readCached(name);
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Stores a snapshot: its documents first, so that a snapshot found always has them. */
export function writeSnapshot(key: string, { documents, ...rest }: SchemaSnapshot): void {
  if (writeCached(documentsFile(key), JSON.stringify(documents))) writeCached(snapshotFile(key), JSON.stringify(rest));
}
