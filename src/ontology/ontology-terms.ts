// What the generated ontology declares, as the generator (ontology-graph.ts) and the alignment with the OGC
// ontologies (alignment.ts) both read it: classes, datatypes, properties with their domains and ranges, individuals.
import type { ClassExpression, DataRange, Hierarchy } from './class-expressions.js';

export type RangeSpec = { kind: 'classes'; members: ClassExpression[] } | { kind: 'data'; members: DataRange[] };

export interface PropertySummary {
  kind: 'object' | 'datatype';
  domain: ClassExpression[];
  range?: RangeSpec;
}

/** What the ontology declares, for the alignment and for tests. */
export interface OntologyTerms {
  hierarchy: Hierarchy;
  classes: Set<string>;
  datatypes: Set<string>;
  properties: Map<string, PropertySummary>;
  individuals: Set<string>;
}
