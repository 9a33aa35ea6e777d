// Rule `context-dependent-term` (warning): one JSON key annotated with different (id, type, container) in different
// places (`tools`, `content`, `data`, ...). One flat context cannot honour every meaning; property- or
// message-scoped contexts can. Reported once per key, with every place listed.
import type { Finding } from '../defect.js';
import { compactIri, finding, place, type Rule } from '../rule.js';
import type { ExtraTerm, PropertySite } from '../schema-model.js';

export const contextDependentTerm: Rule = {
  id: 'context-dependent-term',
  summary: 'one JSON key with different annotations in different places (needs scoped contexts)',
  check(model) {
    const byKey = new Map<string, { at: PropertySite | ExtraTerm; annotation: string }[]>();
    const add = (
      key: string,
      at: PropertySite | ExtraTerm,
      id: string | undefined,
      type: string | undefined,
      container: string | undefined,
    ) => {
      const parts = [
        id === undefined ? '(no id)' : compactIri(model, model.expand(id, at.document)),
        type === undefined ? undefined : `type ${compactIri(model, model.expand(type, at.document))}`,
        container === undefined ? undefined : `container ${container}`,
      ];
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key)!.push({ at, annotation: parts.filter((part) => part !== undefined).join(' ') });
    };
    for (const site of model.properties) if (site.annotated) add(site.key, site, site.id, site.type, site.container);
    for (const term of model.extraTerms) add(term.name, term, term.id, term.type, undefined);
    const findings: Finding[] = [];
    for (const [key, uses] of byKey) {
      const variants = new Map<string, string[]>();
      for (const use of uses) {
        if (!variants.has(use.annotation)) variants.set(use.annotation, []);
        variants.get(use.annotation)!.push(place(use.at));
      }
      if (variants.size < 2) continue;
      const listed = [...variants].map(([annotation, places]) => `${annotation} at ${places.join(', ')}`).join('; ');
      findings.push(
        finding(
          this.id,
          'warning',
          uses[0]!.at,
          `key "${key}" has ${variants.size} different annotations, which one flat context cannot honour: ${listed}`,
        ),
      );
    }
    return findings;
  },
};
