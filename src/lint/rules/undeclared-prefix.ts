// Rule `undeclared-prefix` (error): a compact IRI (`jrpc:hasParameters`) in an annotation or an extra term whose
// prefix the document's own x-jsonld-prefixes does not declare: a context built from the document cannot expand it.
import type { Finding } from '../defect.js';
import { finding, type Rule } from '../rule.js';

export const undeclaredPrefix: Rule = {
  id: 'undeclared-prefix',
  summary: "a compact IRI whose prefix the document's x-jsonld-prefixes does not declare",
  check(model) {
    const findings: Finding[] = [];
    const places = [
      ...model.properties.map((site) => ({ at: site, what: site.label, values: [site.id, site.type] })),
      ...model.extraTerms.map((term) => ({ at: term, what: `extra term ${term.name}`, values: [term.id, term.type] })),
    ];
    for (const { at, what, values } of places) {
      const declared = model.prefixes(at.document);
      const undeclared = values.filter((value): value is string => {
        if (value === undefined) return false;
        const prefix = model.compactPrefix(value);
        return prefix !== undefined && declared[prefix] === undefined;
      });
      if (undeclared.length === 0) continue;
      const names = Object.keys(declared);
      findings.push(
        finding(
          this.id,
          'error',
          at,
          `${what} uses ${undeclared.map((value) => `${value} (prefix ${model.compactPrefix(value)})`).join(' and ')}, but the ${at.document} schema's x-jsonld-prefixes declares only ${names.length > 0 ? names.join(', ') : 'nothing'}: the IRI cannot be expanded`,
        ),
      );
    }
    return findings;
  },
};
