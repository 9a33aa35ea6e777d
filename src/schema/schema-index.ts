// The effective annotated schema (seed + overlay) with its definitions indexed and its messages classified:
// the one object every later stage (context, lint, lift, ontology) reads the schema through.
import { isJsonObject, type JsonObject } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { schemasDir } from '../core/paths.js';
import { loadSeedDocuments, type SeedDocuments } from './documents.js';
import { applyOverlay, loadOverlay, type Overlay } from './overlay.js';
import { RefResolver, type SchemaLocation } from './refs.js';
import { classifyMessages, directionOf, type Direction, type MessageDefinition } from './messages.js';

export class SchemaIndex {
  readonly resolver: RefResolver;
  readonly messages: readonly MessageDefinition[];
  private readonly byName = new Map<string, MessageDefinition>();
  private readonly byMethod = new Map<string, MessageDefinition>();

  constructor(
    /** The documents after the overlay. */
    readonly documents: SeedDocuments,
    /** The documents exactly as shipped. */
    readonly seed: SeedDocuments,
    readonly overlay: Overlay,
  ) {
    this.resolver = new RefResolver(documents);
    this.messages = classifyMessages(this.resolver);
    for (const message of this.messages) {
      this.byName.set(message.name, message);
      if (message.method !== undefined) this.byMethod.set(message.method, message);
    }
  }

  /** The effective MCP schema document, with the seed's structure. */
  get schema(): JsonObject {
    return this.documents.mcp;
  }

  get definitionNames(): string[] {
    const definitions = this.schema['definitions'];
    return isJsonObject(definitions) ? Object.keys(definitions) : [];
  }

  definition(name: string): SchemaLocation {
    if (!this.definitionNames.includes(name)) {
      throw new McpLdError({ code: 'schema.unknown-definition', status: 404, title: 'Unknown definition', detail: `the schema has no definition "${name}"` });
    }
    return this.resolver.at('mcp', `/definitions/${name}`);
  }

  message(name: string): MessageDefinition | undefined {
    return this.byName.get(name);
  }

  /** The request or notification definition carrying `method`, if the schema knows the method. */
  messageForMethod(method: string): MessageDefinition | undefined {
    return this.byMethod.get(method);
  }

  /** The result definition answering a request with `method`. */
  resultForMethod(method: string): MessageDefinition | undefined {
    const request = this.byMethod.get(method);
    return request?.result === undefined ? undefined : this.byName.get(request.result);
  }

  /** The direction a message with `method` travels when nothing else says: client→server unless only servers send it. */
  defaultDirection(method: string): Direction {
    const message = this.byMethod.get(method);
    return message !== undefined && message.senders.length === 1 && message.senders[0] === 'server' ? 's2c' : directionOf('client');
  }

  /** Prefixes the schemas declare (`x-jsonld-prefixes` of both documents, MCP's winning). */
  get prefixes(): Record<string, string> {
    const merged: Record<string, string> = {};
    for (const document of [this.documents['json-rpc'], this.documents.mcp]) {
      const prefixes = document['x-jsonld-prefixes'];
      if (isJsonObject(prefixes)) for (const [name, iri] of Object.entries(prefixes)) if (typeof iri === 'string') merged[name] = iri;
    }
    return merged;
  }
}

let cached: SchemaIndex | undefined;

/** Loads the bundled schemas with the overlay applied. Cached: the files are part of the package. */
export function loadSchema(options: { dir?: string; overlay?: boolean } = {}): SchemaIndex {
  const dir = options.dir ?? schemasDir;
  const useOverlay = options.overlay ?? true;
  if (dir === schemasDir && useOverlay && cached) return cached;
  const index = createSchemaIndex(loadSeedDocuments(dir), useOverlay ? loadOverlay(dir) : { corrections: [] });
  if (dir === schemasDir && useOverlay) cached = index;
  return index;
}

/** A schema index over documents held in memory (tests, tools): `seed` as given, `overlay` applied to copies of it. */
export function createSchemaIndex(seed: SeedDocuments, overlay: Overlay = { corrections: [] }): SchemaIndex {
  return new SchemaIndex(applyOverlay(seed, overlay), seed, overlay);
}
