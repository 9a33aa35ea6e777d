// Rule `union-typed-literal` (warning): a value that may be of several JSON scalar types (`string | integer`) typed
// with one datatype. As an RDF literal 1 and "1" are the same lexical form: the JSON type is lost on the way back.
import { annotatedType, describeValue, finding, type Rule } from '../rule.js';
import { scalarTypesOf } from '../schema-model.js';

export const unionTypedLiteral: Rule = {
  id: 'union-typed-literal',
  summary: 'a string-or-number (or other scalar union) value typed with a single datatype',
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.typeKind !== 'datatype' || analysis.elementShape !== 'scalar') return [];
      const kinds = new Set(scalarTypesOf(analysis.elementTypes).map((type) => (type === 'integer' ? 'number' : type)));
      if (kinds.size < 2) return [];
      return [
        finding(
          this.id,
          'warning',
          site,
          `${site.label} holds ${describeValue(analysis)} but is typed with the single datatype ${annotatedType(model, analysis)}: 1 and "1" become the same literal, so the JSON type cannot be restored from RDF`,
        ),
      ];
    });
  },
};
