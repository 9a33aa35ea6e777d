// Rule `iri-shape-conflict` (error): one x-jsonld-id used for differently shaped values (an object and an array, a
// node and a JSON literal, a list and a single value, a boolean and a string list). A query or a lowering that
// follows the predicate cannot know what it will find. A property refined through `allOf` (an MCP `params` over
// the JSON-RPC `params`) is one value described twice, not a conflict; nor is an rdf:JSON literal of any JSON value
// (the JSON-RPC `result`) beside one of a JSON object (a completed task's `result`).
import { getAtPointer, isJsonObject, joinPointer } from '../../core/json.js';
import type { Finding } from '../defect.js';
import { compactIri, describeValue, finding, type Rule } from '../rule.js';
import type { PropertySite, SchemaModel } from '../schema-model.js';

interface Shaped {
  site: PropertySite;
  /** Equal keys mean equally shaped values. */
  key: string;
  text: string;
  /** An rdf:JSON literal of any JSON value: it holds whatever another rdf:JSON site holds (a JSON-RPC `result`). */
  anyJson: boolean;
}

const compatible = (a: Shaped, b: Shaped): boolean =>
  a.key === b.key || ((a.anyJson || b.anyJson) && a.key.includes(' @json ') && b.key.includes(' @json '));

export const iriShapeConflict: Rule = {
  id: 'iri-shape-conflict',
  summary: 'one x-jsonld-id for differently shaped values (object/array/scalar, @json/node, list/single)',
  check(model) {
    const byIri = new Map<string, Shaped[]>();
    for (const site of model.properties) {
      const analysis = model.analyse(site);
      if (analysis.idIri === undefined) continue;
      if (!byIri.has(analysis.idIri)) byIri.set(analysis.idIri, []);
      byIri.get(analysis.idIri)!.push(shapeOfSite(model, site));
    }
    const refinements = refinementPairs(model);
    const findings: Finding[] = [];
    for (const [iri, group] of byIri) {
      if (group.every((shaped) => compatible(shaped, group[0]!))) continue;
      for (const shaped of group) {
        const others = group.filter(
          (other) => !compatible(shaped, other) && !refinements.has(pairKey(shaped.site, other.site)),
        );
        if (others.length === 0) continue;
        const variants = new Map<string, string[]>();
        for (const other of others) {
          if (!variants.has(other.text)) variants.set(other.text, []);
          variants.get(other.text)!.push(other.site.label);
        }
        const elsewhere = [...variants].map(([text, labels]) => `${text} at ${labels.join(', ')}`).join('; ');
        findings.push(
          finding(
            this.id,
            'error',
            shaped.site,
            `${compactIri(model, iri)} is used for differently shaped values: here ${shaped.site.label} holds ${shaped.text}; elsewhere ${elsewhere}`,
          ),
        );
      }
    }
    return findings;
  },
};

function shapeOfSite(model: SchemaModel, site: PropertySite): Shaped {
  const analysis = model.analyse(site);
  const many = analysis.shape === 'array' && analysis.typeKind !== 'json';
  let kind: string;
  let kindText: string;
  if (analysis.typeKind === 'json') {
    kind = '@json';
    kindText = 'an rdf:JSON literal';
  } else if (analysis.elementShape === 'object') {
    kind = 'node';
    kindText = many ? 'nodes' : 'a node';
  } else if (analysis.typeKind === 'id') {
    kind = 'iri';
    kindText = many ? 'IRIs' : 'an IRI';
  } else {
    kind = `literal:${literalFamily(analysis.family, analysis.elementTypes)}`;
    const typed = analysis.typeIri === undefined ? 'untyped' : `typed ${compactIri(model, analysis.typeIri)}`;
    kindText = `${many ? 'literals' : 'a literal'} ${typed}`;
  }
  const container = analysis.container ?? (many ? '(set)' : 'single');
  const containerText = container === 'single' ? '' : container === '(set)' ? ' (unordered)' : ` in a ${container}`;
  return {
    site,
    key: `${analysis.shape} ${kind} ${container}`,
    text: `${describeValue(analysis)} as ${kindText}${containerText}`,
    anyJson: kind === '@json' && analysis.shape === 'any',
  };
}

/** Value spaces that can share a predicate: numbers with numbers, text with text. */
function literalFamily(family: string | undefined, types: ReturnType<SchemaModel['valueTypes']>): string {
  if (family === 'integer' || family === 'decimal') return 'numeric';
  if (family !== undefined) return family;
  if (types === 'any') return 'any';
  if (types.has('boolean')) return 'boolean';
  if (types.has('number') || types.has('integer')) return types.has('string') ? 'text' : 'numeric';
  return 'text';
}

function pairKey(a: PropertySite, b: PropertySite): string {
  return `${a.document}#${a.pointer} ${b.document}#${b.pointer}`;
}

/**
 * Pairs (base, refining) of property sites: an object schema's own property and the same key in its `allOf` members.
 */
function refinementPairs(model: SchemaModel): Set<string> {
  const pairs = new Set<string>();
  for (const site of model.properties) {
    const ownerPointer = site.pointer.slice(0, site.pointer.length - joinPointer('/properties', site.key).length);
    const owner = getAtPointer(model.documents[site.document], ownerPointer);
    const allOf = isJsonObject(owner) ? owner['allOf'] : undefined;
    if (!Array.isArray(allOf)) continue;
    allOf.forEach((member, index) => {
      if (!isJsonObject(member)) return;
      const members = model.objectMembers({
        document: site.document,
        pointer: `${ownerPointer}/allOf/${index}`,
        node: member,
      });
      for (const base of members.get(site.key) ?? []) {
        pairs.add(pairKey(base, site));
        pairs.add(pairKey(site, base));
      }
    });
  }
  return pairs;
}
