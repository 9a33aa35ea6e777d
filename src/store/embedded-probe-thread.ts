// The probe's thread: an Oxigraph of its own, always empty, that tries each query or update before the embedded store's
// worker gets it. Oxigraph overflows its stack on some texts that parse (a few thousand OPTIONALs, BINDs, joined
// patterns or chained operators), which kills the thread running it: here that costs nothing, in the store's worker a
// rebuild of the whole store. Answers `crashed` (and retires) when the text killed the engine, else `ok`.
import oxigraph from 'oxigraph';
import { serveTasks } from '../core/task-thread.js';
import { oxigraphDataset } from './oxigraph-dataset.js';
import type { DatasetPlan } from './query-dataset.js';

export type ProbeRequest =
  { op: 'query'; sparql: string; graphForm: boolean; dataset: DatasetPlan } | { op: 'update'; sparql: string };

export type ProbeAnswer = { crashed: false } | { crashed: true; reason: string };

const empty = new oxigraph.Store();

serveTasks<ProbeRequest, ProbeAnswer>((request) => {
  try {
    if (request.op === 'update') {
      new oxigraph.Store().update(request.sparql);
    } else {
      const options: Parameters<typeof empty.query>[1] = {
        results_format: request.graphForm ? 'application/n-triples' : 'application/sparql-results+json',
        ...oxigraphDataset(request.dataset),
      };
      empty.query(request.sparql, options);
    }
  } catch (error) {
    // A trap or a stack overflow leaves the engine's memory in an unknown state: this thread is done.
    if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError)
      return { value: { crashed: true, reason: error.message }, retire: true };
    // Anything else (a syntax error; DROP of a graph an empty store lacks) is for the store's own engine to say.
  }
  return { value: { crashed: false } };
});
