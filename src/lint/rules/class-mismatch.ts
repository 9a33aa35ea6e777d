// Rule `class-mismatch` (error): an object typed with a class named after a definition the value is not (the roots
// capability typed mcp:Root): the annotation says the value is something the schema says it is not.
import { annotatedType, describeValue, finding, type Rule } from '../rule.js';

export const classMismatch: Rule = {
  id: 'class-mismatch',
  summary: 'an object typed with the class of a definition its schema does not reference',
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.typeKind !== 'class' || analysis.elementShape !== 'object' || !analysis.element || !analysis.typeIri)
        return [];
      const expected = model.classDefinition(analysis.typeIri);
      if (expected === undefined) return [];
      const referenced = model.referencedDefinitions(analysis.element);
      if (referenced.has(expected)) return [];
      const actual =
        referenced.size > 0
          ? `references ${[...referenced].join(', ')}`
          : `is an inline object (${[...model.objectMembers(analysis.element).keys()].join(', ') || 'no members'})`;
      return [
        finding(
          this.id,
          'error',
          site,
          `${site.label} holds ${describeValue(analysis)} typed ${annotatedType(model, analysis)}, the class of definition ${expected}, but its schema ${actual}, not ${expected}`,
        ),
      ];
    });
  },
};
