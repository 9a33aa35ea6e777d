// Rule `array-without-list` (warning): a JSON array mapped to RDF without `@list` (and not kept as @json). RDF keeps
// the items as an unordered set, so the order of the array is lost and lowering cannot reproduce it.
import { describeValue, finding, type Rule } from '../rule.js';

export const arrayWithoutList: Rule = {
  id: 'array-without-list',
  summary: "an array value whose annotation has no '@list' container: its order is lost",
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (
        !site.annotated ||
        analysis.shape !== 'array' ||
        analysis.typeKind === 'json' ||
        analysis.container !== undefined
      )
        return [];
      return [
        finding(
          this.id,
          'warning',
          site,
          `${site.label} holds ${describeValue(analysis)} without x-jsonld-container @list: RDF keeps its items as an unordered set, so the order of the array is lost`,
        ),
      ];
    });
  },
};
