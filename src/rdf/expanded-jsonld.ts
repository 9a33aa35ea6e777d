// The quads of a dataset as expanded JSON-LD, one node object per subject in each graph, every value as it is in RDF.
// jsonld.js's fromRDF would fold `rdf:first`/`rdf:rest` chains into `@list` even where the cells are IRIs (which
// the JSON-LD 1.1 "Serialize RDF as JSON-LD" algorithm keeps for blank-node cells only), losing the cells' names, and
// would turn `rdf:JSON` literals into JSON values whose canonical form may differ: so the graph written is not the
// graph read back. This writer makes no such conversion; rdf:type is written as @type.
import type { Quad, Term } from '@rdfjs/types';
import type { JsonObject } from '../core/json.js';
import { ns } from './vocabulary.js';

const rdfType = `${ns.rdf}type`;
const xsdString = 'http://www.w3.org/2001/XMLSchema#string';
const langString = `${ns.rdf}langString`;

function nodeId(term: Term): string {
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
}

function valueObject(term: Term): JsonObject {
  if (term.termType !== 'Literal') return { '@id': nodeId(term) };
  if (term.language)
    return {
      '@value': term.value,
      '@language': term.language,
      ...(term.direction ? { '@direction': term.direction } : {}),
    };
  if (term.datatype.value === xsdString || term.datatype.value === langString) return { '@value': term.value };
  return { '@value': term.value, '@type': term.datatype.value };
}

/** Expanded JSON-LD: the default graph's nodes at the top, each named graph as a node with its `@graph`. */
export function expandedJsonLd(quads: readonly Quad[]): JsonObject[] {
  const graphs = new Map<string, Map<string, JsonObject>>();
  for (const quad of quads) {
    const graphName = quad.graph.termType === 'DefaultGraph' ? '' : nodeId(quad.graph);
    let nodes = graphs.get(graphName);
    if (!nodes) graphs.set(graphName, (nodes = new Map()));
    const subject = nodeId(quad.subject);
    let node = nodes.get(subject);
    if (!node) nodes.set(subject, (node = { '@id': subject }));
    if (quad.predicate.value === rdfType && quad.object.termType !== 'Literal') {
      const types = (node['@type'] ??= []) as string[];
      const type = nodeId(quad.object);
      if (!types.includes(type)) types.push(type);
      continue;
    }
    const values = (node[quad.predicate.value] ??= []) as JsonObject[];
    values.push(valueObject(quad.object));
  }
  const top = [...(graphs.get('')?.values() ?? [])];
  for (const [name, nodes] of graphs) {
    if (name === '') continue;
    const holder = top.find((node) => node['@id'] === name);
    if (holder) holder['@graph'] = [...nodes.values()];
    else top.push({ '@id': name, '@graph': [...nodes.values()] });
  }
  return top;
}
