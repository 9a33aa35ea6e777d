// The IRIs the ontology stage writes besides those of the lifter (src/rdf/vocabulary.ts): the ontology and shapes
// documents and their version IRIs, the shapes namespace, and the W3C/DCMI vocabularies the generated files use.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../core/paths.js';
import { protocolVersion } from '../schema/index.js';
import { ns } from '../rdf/index.js';

export const owlNs = 'http://www.w3.org/2002/07/owl#';
const shNs = 'http://www.w3.org/ns/shacl#';
const dctermsNs = 'http://purl.org/dc/terms/';

/** mcp-ld's base for its published documents (the ontology, the shapes, the namespaces `mld:` and `mldx:`). */
const publicationBase = 'https://w3id.org/mcp-ld/';
export const ontologyIri = `${publicationBase}ontology`;
export const shapesIri = `${publicationBase}shapes`;
/** Node shapes are named `mlds:<Definition>` (targeting its class) or `mlds:<Definition>.<key>…` (inline objects). */
export const shapesNs = `${shapesIri}#`;
export const licenseIri = 'https://www.apache.org/licenses/LICENSE-2.0';
/** The published MCP specification of a protocol version (the seed's by default). */
export function specificationIri(version: string = protocolVersion): string {
  return `https://modelcontextprotocol.io/specification/${version}`;
}

/** Prefixes of the generated files (Turtle, JSON-LD), in the order they are written. */
export const prefixes: Readonly<Record<string, string>> = {
  rdf: ns.rdf,
  rdfs: ns.rdfs,
  xsd: ns.xsd,
  owl: owlNs,
  sh: shNs,
  dcterms: dctermsNs,
  mcp: ns.mcp,
  jrpc: ns.jrpc,
  mld: ns.mld,
  mldx: ns.mldx,
  mlds: shapesNs,
};

export const owl = {
  Ontology: `${owlNs}Ontology`,
  Class: `${owlNs}Class`,
  ObjectProperty: `${owlNs}ObjectProperty`,
  DatatypeProperty: `${owlNs}DatatypeProperty`,
  NamedIndividual: `${owlNs}NamedIndividual`,
  AnnotationProperty: `${owlNs}AnnotationProperty`,
  Restriction: `${owlNs}Restriction`,
  versionIRI: `${owlNs}versionIRI`,
  versionInfo: `${owlNs}versionInfo`,
  equivalentClass: `${owlNs}equivalentClass`,
  equivalentProperty: `${owlNs}equivalentProperty`,
  unionOf: `${owlNs}unionOf`,
  oneOf: `${owlNs}oneOf`,
  onProperty: `${owlNs}onProperty`,
  someValuesFrom: `${owlNs}someValuesFrom`,
  inverseOf: `${owlNs}inverseOf`,
  imports: `${owlNs}imports`,
} as const;

export const rdfs = {
  Datatype: `${ns.rdfs}Datatype`,
  label: `${ns.rdfs}label`,
  comment: `${ns.rdfs}comment`,
  subClassOf: `${ns.rdfs}subClassOf`,
  domain: `${ns.rdfs}domain`,
  range: `${ns.rdfs}range`,
  isDefinedBy: `${ns.rdfs}isDefinedBy`,
  seeAlso: `${ns.rdfs}seeAlso`,
} as const;

/** `mcp:CallToolRequest` for an IRI in a namespace of `prefixes`, else `<iri>` (for comments). */
export function curie(iri: string): string {
  for (const [prefix, namespace] of Object.entries(prefixes))
    if (iri.startsWith(namespace)) return `${prefix}:${iri.slice(namespace.length)}`;
  return `<${iri}>`;
}

export const dcterms = {
  title: `${dctermsNs}title`,
  description: `${dctermsNs}description`,
  license: `${dctermsNs}license`,
  source: `${dctermsNs}source`,
  creator: `${dctermsNs}creator`,
} as const;

export const sh = {
  NodeShape: `${shNs}NodeShape`,
  PropertyShape: `${shNs}PropertyShape`,
  targetClass: `${shNs}targetClass`,
  property: `${shNs}property`,
  path: `${shNs}path`,
  zeroOrMorePath: `${shNs}zeroOrMorePath`,
  minCount: `${shNs}minCount`,
  maxCount: `${shNs}maxCount`,
  datatype: `${shNs}datatype`,
  nodeKind: `${shNs}nodeKind`,
  BlankNodeOrIRI: `${shNs}BlankNodeOrIRI`,
  IRI: `${shNs}IRI`,
  class: `${shNs}class`,
  node: `${shNs}node`,
  or: `${shNs}or`,
  in: `${shNs}in`,
  hasValue: `${shNs}hasValue`,
  minInclusive: `${shNs}minInclusive`,
  maxInclusive: `${shNs}maxInclusive`,
  name: `${shNs}name`,
  description: `${shNs}description`,
  declare: `${shNs}declare`,
  prefix: `${shNs}prefix`,
  namespace: `${shNs}namespace`,
} as const;

/** The project version (package.json), which the version IRIs carry beside the protocol version. */
export function projectVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('package.json has no version');
  return manifest.version;
}

/**
 * `https://w3id.org/mcp-ld/shapes/2025-06-18/0.1.0`: one IRI per (MCP protocol version, mcp-ld version), for a
 * document of one protocol version (the shapes); without `protocol`, `https://w3id.org/mcp-ld/ontology/0.1.0`, for
 * a document covering every version this mcp-ld version knows (the ontology).
 */
export function versionIri(documentIri: string, version: string, protocol?: string): string {
  return protocol === undefined ? `${documentIri}/${version}` : `${documentIri}/${protocol}/${version}`;
}
