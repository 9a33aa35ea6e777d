// Rule `unannotated-member` (warning): a key of an object that is lifted as a node (typed @id or with a class) but
// carries no annotation anywhere (not through allOf either). JSON-LD drops it; only a lifter with a fallback
// vocabulary keeps it.
import type { Finding } from '../defect.js';
import { finding, type Rule } from '../rule.js';
import type { PropertySite } from '../schema-model.js';

export const unannotatedMember: Rule = {
  id: 'unannotated-member',
  summary: 'a member of a node-valued object that has no annotation, so JSON-LD drops it',
  check(model) {
    const reported = new Map<PropertySite, string[]>();
    for (const site of model.properties) {
      const analysis = model.analyse(site);
      if (
        site.jsonAncestor !== undefined ||
        analysis.typeKind === 'json' ||
        analysis.elementShape !== 'object' ||
        !analysis.element
      )
        continue;
      if (analysis.typeKind !== 'id' && analysis.typeKind !== 'class') continue;
      for (const [, members] of model.objectMembers(analysis.element)) {
        if (members.some((member) => member.annotated)) continue;
        for (const member of members) {
          if (!reported.has(member)) reported.set(member, []);
          reported.get(member)!.push(site.label);
        }
      }
    }
    const findings: Finding[] = [];
    for (const [member, owners] of reported) {
      findings.push(
        finding(
          this.id,
          'warning',
          member,
          `${member.label} is a member of a value lifted as a node (${owners.join(', ')}) but has no annotation: JSON-LD drops it, so it is in no triple the context produces`,
        ),
      );
    }
    return findings;
  },
};
