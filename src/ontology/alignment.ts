// The alignment with the OGC hand-written ontologies (schemas/reference/ogc-*-ontology.ttl), by one rule:
// - a term with the same IRI is the same term: nothing is stated (where the OGC axioms about it differ from ours,
//   `referenceDifferences` says how; the ontology/README lists them);
// - otherwise an OGC class or property is matched with a term of ours of the same sort (class / property) in the MCP
//   or JSON-RPC namespace whose local name is the same once lower-cased and stripped of a leading `has` (the same
//   namespace first, then the other one: the OGC MCP ontology declares JSON-RPC message terms in `mcp:`). mcp-ld's own
//   terms (`mld:`) are never matched by name. A match is stated as owl:equivalentProperty / owl:equivalentClass
//   when the OGC axioms hold for our term (same property kind; our domain and range within the OGC domain and range;
//   the OGC superclasses among ours), so that they infer nothing false about mcp-ld's graph; else as rdfs:seeAlso.
import type { Quad } from 'n3';
import { localName } from '../context/iris.js';
import { ns, rdf, xsd } from '../rdf/index.js';
import type { ClassExpression, DataRange } from './class-expressions.js';
import { owl, owlNs, rdfs } from './namespaces.js';
import type { OntologyTerms, PropertySummary } from './ontology-terms.js';

export interface AlignmentStatement {
  subject: string;
  predicate: string;
  /** The OGC term. */
  object: string;
  /**
   * What the OGC ontology declares the object to be (the ontology declares it so too: OWL 2 DL wants every IRI
   * declared).
   */
  objectSort: 'class' | 'object' | 'datatype';
}

type Sort = 'class' | 'object' | 'datatype' | 'individual';

interface ReferenceTerm {
  iri: string;
  sort: Sort;
  domain: string[];
  range: string[];
  superClasses: string[];
}

/** The classes and properties the OGC ontologies declare, with their named domains, ranges and superclasses. */
export function referenceTerms(quads: readonly Quad[]): ReferenceTerm[] {
  const bySubject = new Map<string, Quad[]>();
  for (const q of quads) {
    const key = q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value;
    if (!bySubject.has(key)) bySubject.set(key, []);
    bySubject.get(key)!.push(q);
  }
  const objects = (subject: string, predicate: string) =>
    (bySubject.get(subject) ?? []).filter((q) => q.predicate.value === predicate).map((q) => q.object);
  const list = (head: string): string[] => {
    const items: string[] = [];
    for (let cell = head, guard = 0; cell !== rdf.nil && guard < 1000; guard++) {
      const first = objects(cell, rdf.first)[0];
      const rest = objects(cell, rdf.rest)[0];
      if (first === undefined || rest === undefined) break;
      items.push(first.value);
      cell = rest.termType === 'BlankNode' ? `_:${rest.value}` : rest.value;
    }
    return items;
  };
  /** Named classes of a domain/range: an IRI, or the members of an owl:unionOf. */
  const named = (subject: string, predicate: string): string[] =>
    objects(subject, predicate).flatMap((o) => {
      if (o.termType === 'NamedNode') return [o.value];
      const union = objects(`_:${o.value}`, owl.unionOf)[0];
      return union === undefined ? [] : list(union.termType === 'BlankNode' ? `_:${union.value}` : union.value);
    });
  const sorts: Record<string, Sort> = {
    [owl.Class]: 'class',
    [owl.ObjectProperty]: 'object',
    [owl.DatatypeProperty]: 'datatype',
  };
  const terms: ReferenceTerm[] = [];
  for (const subject of [...bySubject.keys()].sort()) {
    if (subject.startsWith('_:')) continue;
    const types = objects(subject, rdf.type).map((t) => t.value);
    // Typed with a class of their own (jrpc:ParseError a jrpc:Error): individuals.
    const sort =
      types.map((t) => sorts[t]).find((s) => s !== undefined) ??
      (types.some((t) => !t.startsWith(owlNs)) ? 'individual' : undefined);
    if (sort === undefined) continue;
    terms.push({
      iri: subject,
      sort,
      domain: named(subject, rdfs.domain),
      range: named(subject, rdfs.range),
      superClasses: objects(subject, rdfs.subClassOf).flatMap((o) => (o.termType === 'NamedNode' ? [o.value] : [])),
    });
  }
  return terms;
}

function key(iri: string): string {
  return localName(iri)
    .toLowerCase()
    .replace(/^has(?=.)/, '');
}

function namespaceOf(iri: string): string {
  return iri.slice(0, iri.length - localName(iri).length);
}

function sortOf(iri: string, terms: OntologyTerms): Sort | 'datatype-definition' | 'individual' | undefined {
  if (terms.classes.has(iri)) return 'class';
  if (terms.datatypes.has(iri)) return 'datatype-definition';
  if (terms.individuals.has(iri)) return 'individual';
  return terms.properties.get(iri)?.kind;
}

function withinDomain(ours: ClassExpression[], reference: string[], terms: OntologyTerms): boolean {
  if (reference.length === 0) return true;
  if (ours.length === 0) return false;
  return ours.every(
    (member) =>
      member.kind === 'class' &&
      reference.some((d) => d === `${owlNs}Thing` || terms.hierarchy.isSubClassOf(member.iri, d)),
  );
}

function withinRange(ours: PropertySummary['range'], reference: string[], terms: OntologyTerms): boolean {
  if (reference.length === 0) return true;
  if (ours === undefined || ours.members.length === 0) return false;
  if (ours.kind === 'classes')
    return ours.members.every(
      (m) => m.kind === 'class' && reference.some((r) => terms.hierarchy.isSubClassOf(m.iri, r)),
    );
  return ours.members.every((m: DataRange) =>
    m.kind === 'oneOf'
      ? reference.includes(xsd.string)
      : reference.includes(m.iri) || (m.iri === xsd.integer && reference.includes(xsd.decimal)),
  );
}

/** Why the OGC axioms about `reference` would not hold for our term `ours` (empty: they all hold). */
function disagreements(ours: string, reference: ReferenceTerm, terms: OntologyTerms): string[] {
  const found: string[] = [];
  const sort = sortOf(ours, terms);
  if (sort !== reference.sort)
    found.push(`the OGC ontology declares it ${describeSort(reference.sort)}; mcp-ld ${describeSort(sort)}`);
  if (reference.sort === 'class') {
    const ancestors = terms.hierarchy.ancestors(ours);
    for (const sup of reference.superClasses) {
      if (!ancestors.has(sup)) found.push(`the OGC ontology makes it a subclass of ${sup}, which mcp-ld does not`);
    }
    return found;
  }
  const summary = terms.properties.get(ours);
  if (summary === undefined) return found;
  if (!withinDomain(summary.domain, reference.domain, terms))
    found.push(`OGC domain ${reference.domain.join(' | ')} does not contain mcp-ld's domain`);
  if (!withinRange(summary.range, reference.range, terms))
    found.push(`OGC range ${reference.range.join(' | ')} does not contain mcp-ld's range`);
  return found;
}

function describeSort(sort: string | undefined): string {
  switch (sort) {
    case 'class':
      return 'a class';
    case 'object':
      return 'an object property';
    case 'datatype':
      return 'a datatype property';
    case 'datatype-definition':
      return 'a datatype';
    case 'individual':
      return 'an individual';
    default:
      return 'nothing';
  }
}

/** The alignment statements the rule derives (see the header of this module). */
export function alignWithReference(terms: OntologyTerms, quads: readonly Quad[]): AlignmentStatement[] {
  const ours = [...terms.classes, ...terms.properties.keys()].filter(
    (iri) => iri.startsWith(ns.mcp) || iri.startsWith(ns.jrpc),
  );
  const statements: AlignmentStatement[] = [];
  for (const reference of referenceTerms(quads)) {
    if (sortOf(reference.iri, terms) !== undefined || reference.sort === 'individual') continue; // the same term: nothing to say
    const sameSort = ours.filter(
      (iri) => key(iri) === key(reference.iri) && (sortOf(iri, terms) === 'class') === (reference.sort === 'class'),
    );
    const sameNamespace = sameSort.filter((iri) => namespaceOf(iri) === namespaceOf(reference.iri));
    const candidates = sameNamespace.length > 0 ? sameNamespace : sameSort;
    if (candidates.length !== 1) continue;
    const match = candidates[0]!;
    const agrees = disagreements(match, reference, terms).length === 0;
    const predicate = !agrees
      ? rdfs.seeAlso
      : reference.sort === 'class'
        ? owl.equivalentClass
        : owl.equivalentProperty;
    statements.push({ subject: match, predicate, object: reference.iri, objectSort: reference.sort });
  }
  return statements.sort((a, b) => (a.subject + a.object < b.subject + b.object ? -1 : 1));
}

interface ReferenceDifference {
  iri: string;
  differences: string[];
}

/** The terms both declare (same IRI) about which the OGC ontologies state something that does not hold for ours. */
export function referenceDifferences(terms: OntologyTerms, quads: readonly Quad[]): ReferenceDifference[] {
  const found: ReferenceDifference[] = [];
  for (const reference of referenceTerms(quads)) {
    if (sortOf(reference.iri, terms) === undefined) continue;
    const differences = disagreements(reference.iri, reference, terms);
    if (differences.length > 0) found.push({ iri: reference.iri, differences });
  }
  return found;
}
