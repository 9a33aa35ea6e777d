// The graphs a remote store keeps for itself (Virtuoso's system graphs), never session graphs: how to tell them, how to
// ask the store for them, and Virtuoso's pragmas that leave them out of its union of all graphs. The remote store uses
// these so that no request grows with the number of sessions (remote-store.ts).

/** IRI prefixes of the graphs Virtuoso keeps for itself. */
const systemGraphPrefixes = [
  'http://www.openlinksw.com/',
  'http://www.w3.org/ns/ldp#',
  'http://www.w3.org/2002/07/owl#',
  'virtrdf:',
  'urn:virtuoso:',
];

/** Virtuoso's graph of its own endpoint (`http://localuriqaserver/sparql`, `…/DAV/`). */
const endpointGraph = '^https?://[^/]+/(?:sparql|DAV)/?$';

export function isSystemGraph(graph: string): boolean {
  return systemGraphPrefixes.some((prefix) => graph.startsWith(prefix)) || new RegExp(endpointGraph, 'i').test(graph);
}

/**
 * The store's graphs that are system graphs, asked of the store in standard SPARQL: its answer is the handful of them,
 * whatever the number of sessions (the same test as isSystemGraph, which the answer is checked with again). The graphs
 * are grouped in a sub-select fenced by a LIMIT, the filter applied to the groups: Virtuoso 7.2.5 lists the graphs of
 * 1.26M quads so in 25 ms, where it evaluates a DISTINCT, or a FILTER it can push in, over every quad (2-20 s).
 */
export const systemGraphsQuery = [
  'SELECT ?g WHERE {',
  '  { SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g LIMIT 1000000000 }',
  `  FILTER(${systemGraphPrefixes.map((prefix) => `STRSTARTS(STR(?g), ${JSON.stringify(prefix)})`).join(' || ')}`,
  `    || REGEX(STR(?g), ${JSON.stringify(endpointGraph.replace('(?:', '('))}, "i"))`,
  '}',
].join('\n');

/**
 * Virtuoso's pragmas (put before a query's or update's text) that take these graphs out of its default graph (when no
 * default graph is given: the union of all graphs) and out of its named graphs (when none are given: all graphs).
 */
export function excludePragmas(graphs: readonly string[], from: readonly ('default' | 'named')[]): string {
  return from.flatMap((which) => graphs.map((graph) => `define input:${which}-graph-exclude <${graph}>\n`)).join('');
}

/**
 * Without a default graph given, Virtuoso describes a resource by the triples that point at it (found in one graph);
 * its CBD mode gives the resource's own triples, as the embedded store does.
 */
export const describeModePragma = 'define sql:describe-mode "CBD"\n';
