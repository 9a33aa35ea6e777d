// The Oxigraph query options that give a query the dataset of its plan (query-dataset.ts), for the threads that run
// Oxigraph (the embedded store's worker and its probe). Options replace the query's FROM / FROM NAMED in Oxigraph,
// so a query that names its own dataset gets none. A protocol dataset of every graph the store has is run as the
// union, the same graph (both keep duplicates across graphs) and 2-9x faster than the list.
import oxigraph from 'oxigraph';
import type { DatasetPlan } from './query-dataset.js';

type QueryOptions = NonNullable<Parameters<oxigraph.Store['query']>[1]>;

/** `storeGraphs`: the graphs the store has, when it has any (the probe's empty store has none to widen to). */
export function oxigraphDataset(
  plan: DatasetPlan,
  storeGraphs?: () => ReadonlySet<string>,
): Pick<QueryOptions, 'default_graph' | 'named_graphs' | 'use_default_graph_as_union'> {
  switch (plan.kind) {
    case 'union':
      return { use_default_graph_as_union: true };
    case 'session':
      return { default_graph: oxigraph.namedNode(plan.graph) };
    case 'query':
      return {};
    case 'protocol': {
      const graphs = storeGraphs?.();
      // Graphs the store lacks add nothing to the default graph; a named graph it lacks is still a name in the dataset.
      const everyDefault =
        graphs !== undefined && graphs.size > 0 && [...graphs].every((g) => plan.defaultGraphs.includes(g));
      const everyNamed =
        graphs !== undefined && graphs.size === plan.namedGraphs.length && plan.namedGraphs.every((g) => graphs.has(g));
      return {
        ...(everyDefault
          ? { use_default_graph_as_union: true }
          : { default_graph: plan.defaultGraphs.map((g) => oxigraph.namedNode(g)) }),
        ...(everyNamed ? {} : { named_graphs: plan.namedGraphs.map((g) => oxigraph.namedNode(g)) }),
      };
    }
  }
}
