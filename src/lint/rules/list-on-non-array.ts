// Rule `list-on-non-array` (error): `x-jsonld-container: '@list'` (or '@set') on a value that is not an array. The
// value would come back from RDF as a one-element array: the annotation says list where the data is single.
import { describeValue, finding, type Rule } from '../rule.js';

export const listOnNonArray: Rule = {
  id: 'list-on-non-array',
  summary: "a container '@list' or '@set' on a value that is a single object or scalar",
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.container !== '@list' && analysis.container !== '@set') return [];
      if (analysis.shape === 'array' || analysis.shape === 'any' || analysis.shape === 'mixed') return [];
      return [
        finding(
          this.id,
          'error',
          site,
          `${site.label} holds ${describeValue(analysis)}, a single value, but has x-jsonld-container ${analysis.container}: the value would be read as a one-element ${analysis.container === '@list' ? 'list' : 'set'} and written back as an array, not as the single value it is`,
        ),
      ];
    });
  },
};
