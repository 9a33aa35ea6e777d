// Terms of other vocabularies that the ontology uses and therefore declares, as OWL 2 DL wants every IRI declared:
// the Dublin Core and SHACL annotation properties of its header, rdf:JSON as a datatype (so that properties with
// JSON values are data properties only), and the OGC terms the alignment names. RDFS's and OWL's own annotation
// properties (rdfs:label, owl:versionInfo, …) are built in and not declared. Pure.
import { ns, rdf } from '../rdf/index.js';
import type { AlignmentStatement } from './alignment.js';
import type { TermDescription } from './json-rpc-terms.js';
import { classLabel, propertyLabel } from './labels.js';
import { curie, dcterms, owl, rdfs, sh } from './namespaces.js';
import { localName } from '../context/iris.js';

/** A term declared with its type (owl:AnnotationProperty, rdfs:Datatype, owl:Class, …), a label and a comment. */
export interface BorrowedTerm extends TermDescription {
  type: string;
}

const annotation = (iri: string, label: string, comment: string): BorrowedTerm => ({
  iri,
  type: owl.AnnotationProperty,
  label,
  comment,
});

export const borrowedTerms: readonly BorrowedTerm[] = [
  annotation(dcterms.title, 'title', 'Dublin Core: a name given to the resource (here, the ontology).'),
  annotation(dcterms.description, 'description', 'Dublin Core: an account of the resource (here, the ontology).'),
  annotation(
    dcterms.license,
    'license',
    'Dublin Core: a legal document giving official permission to do something with the resource.',
  ),
  annotation(
    dcterms.source,
    'source',
    'Dublin Core: a related resource from which the described resource is derived (the annotated schemas).',
  ),
  annotation(
    sh.declare,
    'declare',
    'SHACL: a prefix declaration of the ontology (sh:prefix, sh:namespace), for SPARQL-based constraints and the tools that read them.',
  ),
  annotation(sh.prefix, 'prefix', 'SHACL: the prefix of a prefix declaration.'),
  annotation(sh.namespace, 'namespace', 'SHACL: the namespace IRI of a prefix declaration.'),
  {
    // Not in the OWL 2 datatype map: the one OWL 2 DL violation the ontology keeps (ontology/README.md names it).
    iri: rdf.JSON,
    type: rdfs.Datatype,
    label: 'JSON',
    comment:
      'A JSON value kept whole as a literal (RDF 1.1 JSON-LD, the datatype of `@json`): how mcp-ld keeps values the schema ' +
      "leaves open (a tool's inputSchema, _meta, arguments, log data). Not an OWL 2 datatype: OWL 2 DL tools report it as unknown.",
  },
];

const declarationOf = { class: owl.Class, object: owl.ObjectProperty, datatype: owl.DatatypeProperty } as const;

/** The OGC terms the alignment names, declared as the OGC ontologies declare them (one each, by IRI). */
export function alignmentTargets(alignment: readonly AlignmentStatement[]): BorrowedTerm[] {
  const targets = new Map<string, BorrowedTerm>();
  for (const { object, objectSort, subject } of alignment) {
    const source = object.startsWith(ns.jrpc) ? 'ogc-json-rpc-ontology.ttl' : 'ogc-mcp-ontology.ttl';
    targets.set(object, {
      iri: object,
      type: declarationOf[objectSort],
      label: objectSort === 'class' ? classLabel(localName(object)) : propertyLabel(object),
      comment: `A term of the OGC reference ontology (schemas/reference/${source}), declared here because the alignment relates ${curie(subject)} to it; the lifter does not write it.`,
    });
  }
  return [...targets.values()].sort((a, b) => (a.iri < b.iri ? -1 : 1));
}
