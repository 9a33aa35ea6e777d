// The shape of a lint rule (a pure function from the schema model to findings) and the wording helpers rules share
// so that every message names JSON types, annotations and places the same way.
import type { Finding, Severity } from './defect.js';
import { describeTypes } from './datatypes.js';
import type { ExtraTerm, PropertySite, SchemaModel, ValueAnalysis } from './schema-model.js';

export interface Rule {
  /** Stable id, printed with every finding. */
  id: string;
  /** One line: what the rule checks. */
  summary: string;
  check(model: SchemaModel): Finding[];
}

export function finding(rule: string, severity: Severity, at: PropertySite | ExtraTerm, message: string): Finding {
  return { document: at.document, pointer: at.pointer, rule, severity, message };
}

const wellKnownPrefixes: Record<string, string> = { rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#' };

/** An IRI written with the schemas' prefixes where one fits (`mcp:hasTool`, `xsd:integer`). */
export function compactIri(model: SchemaModel, iri: string): string {
  if (iri.startsWith('@')) return iri;
  const prefixes = { ...wellKnownPrefixes, ...model.prefixes('json-rpc'), ...model.prefixes('mcp') };
  let best: string | undefined;
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    if (iri.startsWith(namespace) && iri.length > namespace.length) {
      const candidate = `${prefix}:${iri.slice(namespace.length)}`;
      if (best === undefined || candidate.length < best.length) best = candidate;
    }
  }
  return best ?? iri;
}

/** `a JSON array of string`, `a JSON object`, `a JSON number`, `any JSON value`. */
export function describeValue(analysis: ValueAnalysis): string {
  if (analysis.shape === 'array') return `a JSON array of ${describeTypes(analysis.elementTypes)}`;
  return analysis.types === 'any' ? 'any JSON value' : `a JSON ${describeTypes(analysis.types)}`;
}

/** The place of a property in messages: `ListToolsResult.tools`. */
export function place(site: PropertySite | ExtraTerm): string {
  return 'label' in site
    ? site.label
    : `${site.document === 'mcp' ? '' : 'json-rpc#'}x-jsonld-extra-terms.${site.name}`;
}

/** `xsd:integer`, `@id`, `(no type)`. */
export function annotatedType(model: SchemaModel, analysis: ValueAnalysis): string {
  return analysis.typeIri === undefined ? '(no x-jsonld-type)' : compactIri(model, analysis.typeIri);
}

/** At most `limit` items, then how many more: keeps one-line messages readable. */
export function listSome(items: string[], limit = 6): string {
  return items.length <= limit
    ? items.join(', ')
    : `${items.slice(0, limit).join(', ')} and ${items.length - limit} more`;
}
