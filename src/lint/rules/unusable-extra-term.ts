// Rule `unusable-extra-term`: an entry of x-jsonld-extra-terms that no JSON key can use: its name is no property key
// anywhere in the schemas and it is no class term (a definition name, or an IRI whose local name starts with an
// upper-case letter, typed @id, for use as a type value). An error when the term can only describe JSON structure
// (@json, @id, untyped); a warning when it is typed with a datatype: such a term still names literal values in
// JSON-LD written for the graph (the JSON-RPC schema's stringValue/numberValue describe request-id nodes).
import { compactIri, finding, type Rule } from '../rule.js';
import { localName } from '../schema-model.js';

export const unusableExtraTerm: Rule = {
  id: 'unusable-extra-term',
  summary: 'an extra term that is neither a property key of the schema nor a class term',
  check(model) {
    const keys = new Set(model.properties.map((site) => site.key));
    const definitions = model.definitionNames;
    return model.extraTerms.flatMap((term) => {
      if (keys.has(term.name) || definitions.has(term.name)) return [];
      const iri = term.id === undefined ? undefined : model.expand(term.id, term.document);
      if (iri !== undefined && term.type === '@id' && /^[A-Z]/.test(localName(iri))) return [];
      const typed =
        term.type === undefined ? '' : ` typed ${compactIri(model, model.expand(term.type, term.document))}`;
      const literalValued = term.type !== undefined && !term.type.startsWith('@');
      const what = `extra term ${term.name} (${iri === undefined ? 'no IRI' : compactIri(model, iri)}${typed}) can be used by no key: no property of either schema is called ${term.name}, and it is no class term (not a definition name; not an upper-case local name typed @id)`;
      return [
        literalValued
          ? finding(
              this.id,
              'warning',
              term,
              `${what}; typed with a datatype, it can still name literal values in JSON-LD written for the graph`,
            )
          : finding(this.id, 'error', term, what),
      ];
    });
  },
};
