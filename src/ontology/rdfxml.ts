// RDF/XML through rdflib's serializer, writing every blank node as a top-level `rdf:Description rdf:nodeID` (the
// "flat" form). rdflib 2.4 nests a blank node referenced once as `parseType="Resource"` around an `rdf:Description`,
// which is not valid RDF/XML (a property element cannot be named rdf:Description); the flat form is always valid.
import * as rdflib from 'rdflib';
// The class (the package's `Serializer` export is a factory function).
import { Serializer } from 'rdflib/lib/serializer.js';
import type { Quad, Term } from 'n3';

type Stats = { roots: unknown[]; subjects: Record<string, unknown[]>; rootsHash: Record<string, boolean>; incoming: Record<string, unknown[]> };

class FlatSerializer extends Serializer {
  override rootSubjects(statements: unknown): Stats {
    const stats = super.rootSubjects(statements) as Stats;
    // Every subject is a root, and no blank node looks singly referenced (so none is nested).
    stats.roots = Object.keys(stats.subjects).map((key) => (this as unknown as { fromStr(s: string): unknown }).fromStr(key));
    for (const key of Object.keys(stats.subjects)) stats.rootsHash[key] = true;
    for (const key of Object.keys(stats.incoming)) if (stats.incoming[key]!.length === 1) stats.incoming[key]!.push(stats.incoming[key]![0]);
    return stats;
  }
}

function toRdflib(term: Term) {
  switch (term.termType) {
    case 'NamedNode':
      return rdflib.sym(term.value);
    case 'BlankNode':
      return rdflib.blankNode(term.value);
    case 'Literal':
      return term.language ? rdflib.lit(term.value, term.language) : rdflib.lit(term.value, undefined, rdflib.sym(term.datatype.value));
    default:
      throw new Error(`cannot write a ${term.termType} in RDF/XML`);
  }
}

export function rdfXml(quads: readonly Quad[], prefixes: Readonly<Record<string, string>>): string {
  const store = rdflib.graph();
  for (const q of quads) store.add(toRdflib(q.subject) as never, toRdflib(q.predicate) as never, toRdflib(q.object) as never);
  const serializer = new FlatSerializer(store);
  serializer.setNamespaces({ ...prefixes });
  return serializer.statementsToXML(store.statements);
}
