// The Oxigraph query options that give a query the dataset of its plan (query-dataset.ts), for the threads that run
// Oxigraph (the embedded store's worker and its probe). Options replace the query's FROM / FROM NAMED in Oxigraph,
// so a query that names its own dataset gets none.
import oxigraph from 'oxigraph';
import type { DatasetPlan } from './query-dataset.js';

type QueryOptions = NonNullable<Parameters<oxigraph.Store['query']>[1]>;

export function oxigraphDataset(plan: DatasetPlan): Pick<QueryOptions, 'default_graph' | 'named_graphs' | 'use_default_graph_as_union'> {
  switch (plan.kind) {
    case 'union':
      return { use_default_graph_as_union: true };
    case 'session':
      return { default_graph: oxigraph.namedNode(plan.graph) };
    case 'query':
      return {};
    case 'protocol':
      return { default_graph: plan.defaultGraphs.map((g) => oxigraph.namedNode(g)), named_graphs: plan.namedGraphs.map((g) => oxigraph.namedNode(g)) };
  }
}
