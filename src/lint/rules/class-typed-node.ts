// Rule `class-typed-node` (warning): an object value typed with a class of the schema (`serverInfo` typed
// mcp:Implementation). JSON-LD applies a term's type only to strings: the object becomes an untyped node, so the
// class must be asserted by the lifter, not by the context.
import { annotatedType, describeValue, finding, type Rule } from '../rule.js';

export const classTypedNode: Rule = {
  id: 'class-typed-node',
  summary: 'an object typed with a class: JSON-LD makes it a node but does not give it the class',
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.typeKind !== 'class' || analysis.elementShape !== 'object') return [];
      return [
        finding(
          this.id,
          'warning',
          site,
          `${site.label} holds ${describeValue(analysis)} typed with the class ${annotatedType(model, analysis)}: JSON-LD ignores a type mapping on node objects, so the node is not typed ${annotatedType(model, analysis)} by the context alone (mcp-ld's lifter asserts the class)`,
        ),
      ];
    });
  },
};
