// Below the stages, rdf: mcp-ld's vocabulary and IRI minting, the RDF literals of JSON values, the entities MCP
// names, and the RDF serializations (N-Quads, TriG, Turtle, JSON-LD, RDF/XML) every stage writes with. Pure: no HTTP,
// no CLI. Modules on a start-up path import formats.ts or vocabulary.ts directly, so as not to load the serializers.
export {
  ns,
  rdf,
  xsd,
  jrpc,
  mld,
  defaultBase,
  IriMinter,
  childIri,
  listCellIri,
  encodeSegment,
  decodeSegment,
  extensionPredicate,
  extensionKey,
} from './vocabulary.js';
export {
  annotatedLiteral,
  naturalLiteral,
  naturalNumber,
  jsonLiteral,
  literalToJson,
  canonicalDouble,
  canonicalJson,
  isBase64,
  isWellFormed,
  type LiteralForm,
} from './literals.js';
export {
  entityReferences,
  entityListings,
  type EntityKind,
  type EntityReference,
  type EntityListing,
} from './entities.js';
export { rdfFormats, mediaTypes, isRdfFormat, type RdfFormat } from './formats.js';
export { quadsToNQuads, quadToNQuads, termToNQuads, escapeLiteralValue } from './nquads.js';
export { serialize, writeNQuads, writeJsonLd, writeRdfXml, compactionContext, outputPrefixes } from './serialize.js';
export { expandedJsonLd } from './expanded-jsonld.js';
