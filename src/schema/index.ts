// Stage 1, schema: loads the annotated MCP schema and the JSON-RPC schema it references (bundled, never fetched),
// applies the overlay, resolves $refs and classifies the messages; and the same for every protocol version, from
// its official schema (schemas/official/) and its annotation file (schemas/annotations/). Pure: no HTTP, no CLI.
export { loadSchema, createSchemaIndex, SchemaIndex, type VersionFacts } from './schema-index.js';
export {
  protocolVersions,
  seedVersion,
  latestVersion,
  carriedFrom,
  isProtocolVersion,
  parseProtocolVersion,
  versionFor,
  type ProtocolVersion,
} from './versions.js';
export { buildVersionDocuments, readOfficialSchema, type VersionDocuments } from './version-schema.js';
export { normalizeOfficialSchema, isEnvelopeDefinition, senderUnions } from './normalize.js';
export { carryAnnotations, type CarryReport } from './carry-over.js';
export {
  loadVersionAnnotations,
  parseVersionAnnotations,
  propertyPointer,
  type VersionAnnotations,
  type Excuse,
} from './version-annotations.js';
export { RefResolver, type SchemaLocation } from './refs.js';
export {
  classifyMessages,
  unionMembers,
  jsonRpcEnvelope,
  envelopeKind,
  directionOf,
  type MessageDefinition,
  type MessageKind,
  type Party,
  type Direction,
} from './messages.js';
export {
  applyOverlay,
  loadOverlay,
  parseOverlay,
  correctionTargets,
  type Correction,
  type Overlay,
} from './overlay.js';
export {
  documentUris,
  documentFiles,
  protocolVersion,
  loadSeedDocuments,
  type DocumentId,
  type SeedDocuments,
} from './documents.js';
export { schemaCodeVersion } from './snapshot.js';
export { annotationCoverage, propertyLabel, type CoverageReport } from './coverage.js';
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
export { chooseResult } from './result-choice.js';
