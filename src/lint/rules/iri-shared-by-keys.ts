// Rule `iri-shared-by-keys` (warning): one IRI bound to different JSON keys or term names (`_meta` and `metadata`
// both mcp:hasMetadata). From RDF, the lowering (or JSON-LD compaction) cannot tell which key a value came from.
import type { Finding } from '../defect.js';
import { compactIri, finding, listSome, place, type Rule } from '../rule.js';
import type { ExtraTerm, PropertySite } from '../schema-model.js';

export const iriSharedByKeys: Rule = {
  id: 'iri-shared-by-keys',
  summary: 'one IRI used by differently named keys or terms',
  check(model) {
    const byIri = new Map<string, Map<string, (PropertySite | ExtraTerm)[]>>();
    const add = (iri: string, name: string, at: PropertySite | ExtraTerm) => {
      if (!byIri.has(iri)) byIri.set(iri, new Map());
      const names = byIri.get(iri)!;
      if (!names.has(name)) names.set(name, []);
      names.get(name)!.push(at);
    };
    for (const site of model.properties)
      if (site.id !== undefined) add(model.expand(site.id, site.document), site.key, site);
    for (const term of model.extraTerms)
      if (term.id !== undefined) add(model.expand(term.id, term.document), term.name, term);
    const findings: Finding[] = [];
    for (const [iri, names] of byIri) {
      if (names.size < 2) continue;
      const first = [...names.values()][0]![0]!;
      const listed = [...names].map(([name, places]) => `"${name}" at ${listSome(places.map(place))}`).join('; ');
      findings.push(
        finding(
          this.id,
          'warning',
          first,
          `${compactIri(model, iri)} is bound to ${names.size} different keys, so RDF cannot tell which key a value came from: ${listed}`,
        ),
      );
    }
    return findings;
  },
};
