// Rule `id-on-literal`: `x-jsonld-type: '@id'` on a value that cannot be a node. On a JSON scalar (warning) the value
// becomes an IRI resolved against the base, so equal values of different sessions collide; on an object with no
// annotated member (error) JSON-LD makes an empty node and drops everything inside.
import { isJsonObject } from '../../core/json.js';
import { describeValue, finding, type Rule } from '../rule.js';

/** String formats whose values are IRIs already: `@id` is right for them. */
const iriFormats = new Set(['uri', 'iri', 'uri-reference', 'iri-reference']);

export const idOnLiteral: Rule = {
  id: 'id-on-literal',
  summary: "x-jsonld-type '@id' on a scalar (warning) or on an object without any annotated member (error)",
  check(model) {
    return model.properties.flatMap((site) => {
      const analysis = model.analyse(site);
      if (analysis.typeKind !== 'id' || !analysis.element) return [];
      if (analysis.elementShape === 'scalar') {
        const format = analysis.element.node['format'];
        if (typeof format === 'string' && iriFormats.has(format)) return [];
        const base = model.documents[site.document]['x-jsonld-base'];
        const against = typeof base === 'string' ? `the document's x-jsonld-base ${base}` : 'the document base';
        return [
          finding(
            this.id,
            'warning',
            site,
            `${site.label} holds ${describeValue(analysis)} but is typed @id: each value becomes a relative IRI resolved against ${against}, so equal values from different sessions (and 1 vs "1") collide in one IRI; mcp-ld lifts such values as session-scoped nodes instead`,
          ),
        ];
      }
      if (analysis.elementShape !== 'object') return [];
      const members = model.objectMembers(analysis.element);
      const annotated = [...members.values()].some((sites) => sites.some((member) => member.annotated));
      if (annotated) return [];
      const open =
        isJsonObject(analysis.element.node['additionalProperties']) ||
        analysis.element.node['additionalProperties'] === true;
      const inside =
        members.size > 0
          ? `its members (${[...members.keys()].join(', ')}) carry no annotation`
          : open
            ? 'its members are free-form keys, none annotated'
            : 'it declares no annotated member';
      return [
        finding(
          this.id,
          'error',
          site,
          `${site.label} holds ${describeValue(analysis)} typed @id, but ${inside}: JSON-LD makes an empty node of it and drops everything inside`,
        ),
      ];
    });
  },
};
