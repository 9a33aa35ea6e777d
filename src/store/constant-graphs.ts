// Virtuoso 7.2.5, told to leave its system graphs out of its union (system-graphs.ts), answers a GRAPH <iri> pattern
// wrong (no rows; a COUNT of 1) and applies nothing of an update whose WHERE has one. It answers GRAPH ?v with
// FILTER(?v = <iri>) right: this rewrites every GRAPH <iri> pattern (of a query, of sub-queries and EXISTS, of the
// WHERE
// of an update, a DELETE WHERE's pattern) that way. Templates (what an update inserts or deletes) stay as they are.
import { DataFactory } from 'n3';
import { Generator, Parser, type SparqlQuery } from 'sparqljs';

/** Variables this rewrite adds; a SELECT * would answer them too, so the store drops them from its answers. */
export const graphVariablePrefix = 'mcpld_graph_';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text with each GRAPH <iri> pattern rewritten; the same text when it has none (or does not parse). */
export function withVariableGraphs(text: string): string {
  if (!/graph/i.test(text)) return text;
  let tree: unknown;
  try {
    tree = new Parser({ sparqlStar: false }).parse(text);
  } catch {
    return text; // mcp-ld parsed it already; a store-side error is the store's to report
  }
  let count = 0;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isNode(value) || 'termType' in value) return value;
    const node: Node = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, rewrite(child)]));
    if (
      node['type'] === 'graph' &&
      Array.isArray(node['patterns']) &&
      isNode(node['name']) &&
      node['name']['termType'] === 'NamedNode'
    ) {
      const variable = DataFactory.variable(`${graphVariablePrefix}${count++}`);
      return {
        type: 'group',
        patterns: [
          { ...node, name: variable },
          { type: 'filter', expression: { type: 'operation', operator: '=', args: [variable, node['name']] } },
        ],
      };
    }
    if (node['updateType'] === 'deletewhere') {
      // DELETE WHERE { P } is DELETE { P } WHERE { P }: only its WHERE is rewritten.
      const quads = node['delete'] as Node[];
      const where = quads.map((q) =>
        q['type'] === 'graph'
          ? { type: 'graph', name: q['name'], patterns: [{ type: 'bgp', triples: q['triples'] }] }
          : q,
      );
      return { updateType: 'insertdelete', delete: value['delete'], insert: [], where: rewrite(where) };
    }
    return node;
  };
  const rewritten = rewrite(tree);
  if (count === 0) return text;
  return new Generator().stringify(rewritten as SparqlQuery);
}
