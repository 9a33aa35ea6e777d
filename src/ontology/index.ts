// Stage 6, ontology: the OWL ontology and the SHACL shapes generated from the effective schema and mcp-ld's own
// vocabulary, aligned with the OGC reference ontologies; serialized as Turtle, RDF/XML, JSON-LD and N-Triples.
// Pure core (quads); serialization and files at the edge. No HTTP, no CLI.
export {
  ontologyModel,
  type OntologyModel,
  type ObjectModel,
  type PropertyModel,
  type DefinitionModel,
  type ValueModel,
} from './definition-model.js';
export {
  buildOntology,
  type GeneratedOntology,
  type OntologyTerms,
  type PropertySummary,
  type VersionedModel,
} from './ontology-graph.js';
export { buildShapes, shapeIri, listShape } from './shapes-graph.js';
export { alignWithReference, referenceDifferences, referenceTerms, type AlignmentStatement } from './alignment.js';
export { serialize, formats, toTurtle, toNTriples, toJsonLd, toRdfXml, type OntologyFormat } from './serialize.js';
export {
  generateOntology,
  generateOntologyGraph,
  generateShapes,
  versionIndexes,
  versionShapesFile,
  buildOntologyFiles,
  writeOntology,
  checkOntology,
  serializeDocument,
  documentFile,
  loadReferenceOntologies,
  referenceOntologyFiles,
  type GeneratedDocuments,
  type OntologyDocument,
  type OntologyDrift,
} from './build-ontology.js';
export { versionAnnotations } from './own-terms.js';
export { ontologyIri, shapesIri, shapesNs, prefixes, projectVersion, versionIri } from './namespaces.js';
