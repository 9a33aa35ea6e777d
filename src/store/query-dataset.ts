// The dataset a query runs over (QueryOptions in quad-store.ts), decided here once for both stores: the protocol's,
// else the query's own FROM / FROM NAMED, else one session's graph, else the union of the session graphs. Every graph
// name is checked here (absolute IRIs); what a store does with the plan is its own affair.
import type { QueryDataset, QueryForm, QueryOptions } from './quad-store.js';
import { queryShape, withoutDatasetClauses } from './query-form.js';
import { invalidGraph } from './store-errors.js';
import { isAbsoluteIri } from '../core/iri.js';

/** A graph name, refused (store.invalid-graph, 400) unless it is an absolute IRI. */
export function checkGraphName(graph: string): string {
  if (!isAbsoluteIri(graph)) throw invalidGraph(graph);
  return graph;
}

/**
 * - `union`: the default graph is the union of every session graph, the named graphs are every session graph;
 * - `session`: the default graph is that session's graph, the named graphs every session graph;
 * - `query` (the query's FROM / FROM NAMED) and `protocol` (QueryOptions.dataset): exactly these graphs.
 */
export type DatasetPlan =
  { kind: 'union' } | { kind: 'session'; graph: string } | ({ kind: 'query' | 'protocol' } & QueryDataset);

/** A dataset with every name checked, each once. */
export function checkDataset(dataset: QueryDataset): QueryDataset {
  const checked = (graphs: readonly string[]) => [...new Set(graphs.map(checkGraphName))];
  return { defaultGraphs: checked(dataset.defaultGraphs), namedGraphs: checked(dataset.namedGraphs) };
}

interface QueryPlan {
  form: QueryForm;
  dataset: DatasetPlan;
  /** The query without its own FROM / FROM NAMED, for a store that is sent the dataset apart (some merge the two). */
  textWithoutDataset: string;
}

/** The form of a query (query-form.ts) and the dataset it runs over with these options. */
export function planQuery(sparql: string, options: QueryOptions): QueryPlan {
  const shape = queryShape(sparql);
  const plan = (dataset: DatasetPlan): QueryPlan => ({
    form: shape.form,
    dataset,
    textWithoutDataset: withoutDatasetClauses(sparql, shape),
  });
  if (options.dataset) return plan({ kind: 'protocol', ...checkDataset(options.dataset) });
  if (shape.dataset) return plan({ kind: 'query', ...checkDataset(shape.dataset) });
  if (options.graph !== undefined && options.graph !== 'union')
    return plan({ kind: 'session', graph: checkGraphName(options.graph) });
  return plan({ kind: 'union' });
}
