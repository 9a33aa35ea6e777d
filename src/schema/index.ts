// Stage 1, schema: loads the annotated MCP schema and the JSON-RPC schema it references (bundled, never fetched),
// applies the overlay, resolves $refs and classifies the messages. Pure: no HTTP, no CLI.
export { loadSchema, createSchemaIndex, SchemaIndex } from './schema-index.js';
export { RefResolver, type SchemaLocation } from './refs.js';
export { classifyMessages, unionMembers, jsonRpcEnvelope, envelopeKind, directionOf, type MessageDefinition, type MessageKind, type Party, type Direction } from './messages.js';
export { applyOverlay, loadOverlay, parseOverlay, correctionTargets, type Correction, type Overlay } from './overlay.js';
export { documentUris, documentFiles, protocolVersion, loadSeedDocuments, type DocumentId, type SeedDocuments } from './documents.js';
export { schemaCodeVersion } from './snapshot.js';
export {
  SchemaWalker,
  definitionNameAt,
  definitionPointer,
  definitionsKeyword,
  definitionsOf,
  type JsonType,
  type JsonTypes,
  type ObjectParts,
} from './walker.js';
