// The effective annotated schema (seed + overlay) with its definitions indexed and its messages classified:
// the one object every later stage (context, lint, lift, ontology) reads the schema through.
import { contentKey } from '../core/cache.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { schemasDir } from '../core/paths.js';
import { loadSeedDocuments, type SeedDocuments } from './documents.js';
import { applyOverlay, loadOverlay, type Overlay } from './overlay.js';
import { RefResolver, type SchemaLocation } from './refs.js';
import { definitionPointer, definitionsOf } from './walker.js';
import { classifyMessages, directionOf, type Direction, type MessageDefinition } from './messages.js';
import { buildVersionDocuments, type VersionDocuments } from './version-schema.js';
import { carriedFrom, seedVersion, type ProtocolVersion } from './versions.js';
import {
  readSnapshot,
  readSnapshotDocuments,
  snapshotKey,
  versionSnapshotKey,
  writeSnapshot,
  type DerivedSchema,
  type VersionFacts,
} from './snapshot.js';

export type { VersionFacts } from './snapshot.js';

/** A value, or how to make it when first asked. */
type Deferred<T extends object> = T | (() => T);

export class SchemaIndex {
  readonly messages: readonly MessageDefinition[];
  private readonly byName = new Map<string, MessageDefinition>();
  private readonly byMethod = new Map<string, MessageDefinition>();
  private effective: Deferred<SeedDocuments>;
  private seedDocuments: Deferred<SeedDocuments>;
  private refs: RefResolver | undefined;
  private readonly anchors: [string, string][] | undefined;
  private key: string | undefined;

  constructor(
    /** The documents after the overlay; deferred when a snapshot gives all that start-up needs without them. */
    documents: Deferred<SeedDocuments>,
    /** The documents exactly as shipped; deferred when only lint and `schema --seed` need them. */
    seed: Deferred<SeedDocuments>,
    readonly overlay: Overlay,
    /** What a snapshot already derived from `documents`: derived here when absent. */
    derived?: DerivedSchema,
    readonly versionFacts: VersionFacts = { version: seedVersion, resultAlternatives: {}, unannotated: [] },
  ) {
    this.effective = documents;
    this.seedDocuments = seed;
    this.anchors = derived?.anchors;
    this.key = derived?.contentKey;
    this.messages =
      derived?.messages ?? withResultAlternatives(classifyMessages(this.resolver), versionFacts.resultAlternatives);
    for (const message of this.messages) {
      this.byName.set(message.name, message);
      if (message.method !== undefined) this.byMethod.set(message.method, message);
    }
  }

  /** The protocol version the schema describes. */
  get version(): ProtocolVersion {
    return this.versionFacts.version;
  }

  /** The documents after the overlay. */
  get documents(): SeedDocuments {
    if (typeof this.effective === 'function') this.effective = this.effective();
    return this.effective;
  }

  /** The documents exactly as shipped. */
  get seed(): SeedDocuments {
    if (typeof this.seedDocuments === 'function') this.seedDocuments = this.seedDocuments();
    return this.seedDocuments;
  }

  get resolver(): RefResolver {
    return (this.refs ??= new RefResolver(this.documents, this.anchors));
  }

  /** A hash of the effective documents: what data derived from them (plans, validators) is cached by. */
  get contentKey(): string {
    return (this.key ??= contentKey([JSON.stringify(this.documents['json-rpc']), JSON.stringify(this.documents.mcp)]));
  }

  /** The effective MCP schema document, with the seed's structure. */
  get schema(): JsonObject {
    return this.documents.mcp;
  }

  /** The MCP schema's definition names (under `definitions` or `$defs`). */
  get definitionNames(): string[] {
    return Object.keys(definitionsOf(this.schema));
  }

  definition(name: string): SchemaLocation {
    if (!Object.hasOwn(definitionsOf(this.schema), name)) {
      throw McpLdError.of('schema.unknown-definition', { detail: `the schema has no definition "${name}"` });
    }
    return this.resolver.at('mcp', definitionPointer(this.schema, name));
  }

  message(name: string): MessageDefinition | undefined {
    return this.byName.get(name);
  }

  /** The request or notification definition carrying `method`, if the schema knows the method. */
  messageForMethod(method: string): MessageDefinition | undefined {
    return this.byMethod.get(method);
  }

  /**
   * The definition carrying `method`, whether it is a message or only embedded in one (2026-07-28's elicitation,
   * sampling and roots requests inside an InputRequiredResult).
   */
  definitionForMethod(method: string): string | undefined {
    const message = this.byMethod.get(method);
    if (message !== undefined) return message.name;
    if (this.embedded === undefined) {
      this.embedded = new Map();
      for (const name of this.definitionNames) {
        const carried = this.methodOfDefinition(name);
        if (carried !== undefined && !this.embedded.has(carried)) this.embedded.set(carried, name);
      }
    }
    return this.embedded.get(method);
  }

  /** The `method` const of a definition, if it has one. */
  methodOfDefinition(name: string): string | undefined {
    const node = (this.schema['definitions'] as Record<string, unknown> | undefined)?.[name];
    const properties = isJsonObject(node) ? node['properties'] : undefined;
    const method = isJsonObject(properties) ? properties['method'] : undefined;
    return isJsonObject(method) && typeof method['const'] === 'string' ? method['const'] : undefined;
  }

  private embedded: Map<string, string> | undefined;

  /** The result definition answering a request with `method`. */
  resultForMethod(method: string): MessageDefinition | undefined {
    const request = this.byMethod.get(method);
    return request?.result === undefined ? undefined : this.byName.get(request.result);
  }

  /**
   * The direction a message with `method` travels when nothing else says: client→server unless only servers send it.
   */
  defaultDirection(method: string): Direction {
    const message = this.byMethod.get(method);
    return message !== undefined && message.senders.length === 1 && message.senders[0] === 'server'
      ? 's2c'
      : directionOf('client');
  }

  /** Prefixes the schemas declare (`x-jsonld-prefixes` of both documents, MCP's winning). */
  get prefixes(): Record<string, string> {
    const merged: Record<string, string> = {};
    for (const document of [this.documents['json-rpc'], this.documents.mcp]) {
      const prefixes = document['x-jsonld-prefixes'];
      if (isJsonObject(prefixes))
        for (const [name, iri] of Object.entries(prefixes)) if (typeof iri === 'string') merged[name] = iri;
    }
    return merged;
  }
}

/**
 * The results a request may get besides its paired one (2026-07-28's InputRequiredResult, 2025-11-25's
 * CreateTaskResult) are result messages too, answering those requests.
 */
function withResultAlternatives(
  messages: MessageDefinition[],
  alternatives: Record<string, string[]>,
): MessageDefinition[] {
  const byName = new Map(messages.map((message) => [message.name, message]));
  const added: MessageDefinition[] = [];
  for (const [request, results] of Object.entries(alternatives)) {
    const asked = byName.get(request);
    if (asked === undefined) continue;
    for (const name of results) {
      let result = byName.get(name);
      if (result === undefined) {
        result = { name, kind: 'result', senders: [], answers: [] };
        byName.set(name, result);
        added.push(result);
      }
      if (result.kind !== 'result' || result.answers!.includes(request)) continue;
      result.answers!.push(request);
      const senders = new Set(result.senders);
      for (const sender of asked.senders) senders.add(sender === 'client' ? 'server' : 'client');
      result.senders = [...senders].sort();
    }
  }
  return [...messages, ...added.sort((a, b) => a.name.localeCompare(b.name))];
}

let cached: SchemaIndex | undefined;
const cachedVersions = new Map<ProtocolVersion, SchemaIndex>();

/**
 * Loads the bundled schemas of a protocol version (default: the seed's, 2025-06-18) with the overlay (for another
 * version: its annotation file) applied. Cached: the files are part of the package.
 */
export function loadSchema(options: { dir?: string; overlay?: boolean; protocol?: ProtocolVersion } = {}): SchemaIndex {
  const dir = options.dir ?? schemasDir;
  const useOverlay = options.overlay ?? true;
  if (options.protocol !== undefined && options.protocol !== seedVersion)
    return loadVersionSchema(options.protocol, dir, useOverlay);
  if (dir === schemasDir && useOverlay && cached) return cached;
  const index = dir === schemasDir ? loadPackagedSchema(useOverlay) : buildSchemaIndex(dir, useOverlay);
  if (dir === schemasDir && useOverlay) cached = index;
  return index;
}

/** The package's own schemas: from their snapshot when it is current, else built (and the snapshot written). */
function loadPackagedSchema(useOverlay: boolean): SchemaIndex {
  const key = snapshotKey(schemasDir, useOverlay);
  if (key === undefined) return buildSchemaIndex(schemasDir, useOverlay); // a seed file is missing: it says so
  const snapshot = readSnapshot(key);
  if (snapshot) {
    // The documents are the snapshot's too, read when first needed (or, should that file be gone, made again).
    const documents = (): SeedDocuments => readSnapshotDocuments(key) ?? applyOverlay(index.seed, snapshot.overlay);
    const index: SchemaIndex = new SchemaIndex(
      documents,
      () => loadSeedDocuments(schemasDir),
      snapshot.overlay,
      snapshot,
    );
    return index;
  }
  const index = buildSchemaIndex(schemasDir, useOverlay);
  writeSnapshot(key, {
    documents: index.documents,
    overlay: index.overlay,
    contentKey: index.contentKey,
    anchors: index.resolver.anchorTable(),
    messages: [...index.messages],
  });
  return index;
}

/**
 * A version other than the seed's, built from the effective documents of the version its annotations come from; for
 * the package's own schemas, read from its snapshot when that is current (built and written otherwise).
 */
function loadVersionSchema(version: ProtocolVersion, dir: string, useOverlay: boolean): SchemaIndex {
  const packaged = dir === schemasDir && useOverlay;
  const known = packaged ? cachedVersions.get(version) : undefined;
  if (known) return known;
  let built: VersionDocuments | undefined;
  const build = (): VersionDocuments =>
    (built ??= buildVersionDocuments(version, loadSchema({ dir, protocol: carriedFrom(version)! }).documents, dir));
  const key = packaged ? versionSnapshotKey(dir, version) : undefined;
  const snapshot = key === undefined ? undefined : readSnapshot(key);
  let index: SchemaIndex;
  if (key !== undefined && snapshot?.versionFacts !== undefined) {
    const documents = (): SeedDocuments => readSnapshotDocuments(key) ?? build().effective;
    index = new SchemaIndex(documents, () => build().carried, snapshot.overlay, snapshot, snapshot.versionFacts);
  } else {
    const { effective, carried, annotations, resultAlternatives } = build();
    const facts: VersionFacts = { version, resultAlternatives, unannotated: annotations.unannotated };
    index = new SchemaIndex(
      useOverlay ? effective : carried,
      carried,
      useOverlay ? annotations : { corrections: [] },
      undefined,
      facts,
    );
    if (key !== undefined) {
      writeSnapshot(key, {
        documents: effective,
        overlay: annotations,
        contentKey: index.contentKey,
        anchors: index.resolver.anchorTable(),
        messages: [...index.messages],
        versionFacts: facts,
      });
    }
  }
  if (packaged) cachedVersions.set(version, index);
  return index;
}

function buildSchemaIndex(dir: string, useOverlay: boolean): SchemaIndex {
  return createSchemaIndex(loadSeedDocuments(dir), useOverlay ? loadOverlay(dir) : { corrections: [] });
}

/** A schema index over documents held in memory (tests, tools): `seed` as given, `overlay` applied to copies of it. */
export function createSchemaIndex(seed: SeedDocuments, overlay: Overlay = { corrections: [] }): SchemaIndex {
  return new SchemaIndex(applyOverlay(seed, overlay), seed, overlay);
}
