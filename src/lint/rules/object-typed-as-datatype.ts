// Rule `object-typed-as-datatype` (error): an object value typed with something that is neither @id, @json nor a
// class of the schema (`params` typed `urn:mcp:params`): JSON-LD ignores a datatype on an object.
import { annotatedType, describeValue, finding, type Rule } from '../rule.js';

export const objectTypedAsDatatype: Rule = {
  id: 'object-typed-as-datatype',
  summary: 'an object-valued property typed with a datatype instead of @id, @json or a class',
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.typeKind !== 'datatype' || analysis.elementShape !== 'object') return [];
      return [
        finding(
          this.id,
          'error',
          site,
          `${site.label} holds ${describeValue(analysis)} but is typed ${annotatedType(model, analysis)}, which is neither @id, @json nor a class of the schema: a datatype cannot describe an object (JSON-LD ignores it there), so the annotation says nothing true about the value`,
        ),
      ];
    });
  },
};
