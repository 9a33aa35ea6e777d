// Class and datatype expressions for domains and ranges — named classes, `∃ p⁻ . C` (the node that is the value
// of p on a C: how untyped params/result/inline objects are named), datatype enumerations — with subsumption over
// the named hierarchy, so that a union keeps only its most general members. ontology-graph.ts writes them as OWL.
import { xsd } from '../rdf/index.js';

export type ClassExpression =
  { kind: 'class'; iri: string } | { kind: 'valueOf'; property: string; subject: ClassExpression };

export type DataRange = { kind: 'datatype'; iri: string } | { kind: 'oneOf'; values: string[] };

/** Named superclasses of each class (direct), and their transitive closure. */
export class Hierarchy {
  private readonly direct = new Map<string, Set<string>>();

  addSubClass(sub: string, sup: string): void {
    if (sub === sup) return;
    if (!this.direct.has(sub)) this.direct.set(sub, new Set());
    this.direct.get(sub)!.add(sup);
  }

  /** `iri` and all its named superclasses. */
  ancestors(iri: string): Set<string> {
    const seen = new Set<string>([iri]);
    const stack = [iri];
    while (stack.length > 0) {
      for (const sup of this.direct.get(stack.pop()!) ?? []) {
        if (!seen.has(sup)) {
          seen.add(sup);
          stack.push(sup);
        }
      }
    }
    return seen;
  }

  isSubClassOf(sub: string, sup: string): boolean {
    return this.ancestors(sub).has(sup);
  }

  subsumes(general: ClassExpression, specific: ClassExpression): boolean {
    if (general.kind === 'class' && specific.kind === 'class') return this.isSubClassOf(specific.iri, general.iri);
    if (general.kind === 'valueOf' && specific.kind === 'valueOf')
      return general.property === specific.property && this.subsumes(general.subject, specific.subject);
    return false;
  }
}

export function expressionKey(expression: ClassExpression): string {
  return expression.kind === 'class' ? expression.iri : `${expression.property}⁻/${expressionKey(expression.subject)}`;
}

/** The members of a union, without duplicates or members another one subsumes, in a stable order. */
export function simplifyUnion(members: ClassExpression[], hierarchy: Hierarchy): ClassExpression[] {
  const unique = new Map(members.map((m) => [expressionKey(m), m]));
  const kept = [...unique.values()].filter(
    (m) =>
      ![...unique.values()].some(
        (other) => other !== m && hierarchy.subsumes(other, m) && !hierarchy.subsumes(m, other),
      ),
  );
  return kept.sort((a, b) => (expressionKey(a) < expressionKey(b) ? -1 : expressionKey(a) > expressionKey(b) ? 1 : 0));
}

/** XSD datatypes that are derived from another one listed (xsd:integer from xsd:decimal) are left out. */
const derivedFrom: Record<string, string> = { [xsd.integer]: xsd.decimal };

export function simplifyDataRanges(ranges: DataRange[]): DataRange[] {
  const unique = new Map(ranges.map((r) => [r.kind === 'datatype' ? r.iri : `oneOf:${r.values.join('|')}`, r]));
  const iris = new Set([...unique.values()].flatMap((r) => (r.kind === 'datatype' ? [r.iri] : [])));
  const kept = [...unique.entries()].filter(
    ([, r]) => !(r.kind === 'datatype' && derivedFrom[r.iri] !== undefined && iris.has(derivedFrom[r.iri]!)),
  );
  // An enumeration of strings is a subset of xsd:string.
  const filtered = iris.has(xsd.string) ? kept.filter(([, r]) => r.kind !== 'oneOf') : kept;
  return filtered.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
