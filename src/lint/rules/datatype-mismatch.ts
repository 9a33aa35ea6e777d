// Rule `datatype-mismatch` (error): an x-jsonld-type datatype whose value space cannot hold the JSON values the
// schema allows (a number as xsd:integer, a string array as xsd:boolean, any JSON as xsd:base64Binary).
import { describeTypes, jsonTypesFor, rdfJson } from '../datatypes.js';
import { annotatedType, describeValue, finding, type Rule } from '../rule.js';

export const datatypeMismatch: Rule = {
  id: 'datatype-mismatch',
  summary: 'an XSD datatype that cannot describe the JSON type of the value (for arrays, of the items)',
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.typeKind !== 'datatype' || analysis.typeIri === rdfJson) return [];
      const types = analysis.elementTypes;
      const what = `${site.label} holds ${describeValue(analysis)}`;
      if (types === 'any') {
        return [
          finding(
            this.id,
            'error',
            site,
            `${what} (the schema gives no type: objects, arrays, numbers and strings are all allowed) but is typed ${annotatedType(model, analysis)}, a scalar datatype; only @json (rdf:JSON) can hold any JSON value`,
          ),
        ];
      }
      // Object values are `object-typed-as-datatype`; a datatype outside XSD (mcp:Cursor) has no known value space.
      if (types.has('object') || types.has('array') || analysis.family === undefined) return [];
      const allowed = jsonTypesFor(analysis.family);
      const misfits = [...types].filter((type) => type !== 'null' && !allowed.has(type));
      if (misfits.length === 0) return [];
      const why =
        misfits.includes('number') && allowed.has('integer') ? ' (a JSON number may have a fraction, such as 2.5)' : '';
      return [
        finding(
          this.id,
          'error',
          site,
          `${what} but is typed ${annotatedType(model, analysis)}, whose value space holds only ${describeTypes(allowed)} values${why}`,
        ),
      ];
    });
  },
};
