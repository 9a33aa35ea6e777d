// The worker thread that owns the embedded Oxigraph store. It only executes requests from the main thread, one at a
// time; it keeps no durability of its own (the main thread's journal is the truth and rebuilds it after a restart).
// Results cross the thread boundary as text (SPARQL JSON results, N-Triples), never as Oxigraph term objects.
import { parentPort } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { transferables, type ThreadRequest, type ThreadResponse, type UpdateOutcome } from './embedded-protocol.js';
import { limitResultText } from './result-limits.js';
import { ResultChunker, type OpenedAnswer } from './result-chunks.js';
import { oxigraphDataset } from './oxigraph-dataset.js';

const port = parentPort;
if (!port) throw new Error('embedded-thread.js runs as a worker thread');

const store = new oxigraph.Store();
const nquads = 'application/n-quads';
const ntriples = 'application/n-triples';
const jsonResults = 'application/sparql-results+json';

/** N-Quads bytes loaded so far, and up to how many loads run in a transaction (see `load`). */
let loadedBytes = 0;
const transactionalBytes = 60 * 1024 * 1024;

/** Answers being handed out a chunk at a time, by cursor number (embedded-store.ts closes those left idle). */
const cursors = new Map<number, ResultChunker>();

/** Graphs of the snapshot in progress, consumed by `snapshotNext`. */
let snapshotGraphs: string[] | undefined;

function graphNames(): string[] {
  const json = store.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', {
    results_format: jsonResults,
  }) as string;
  const bindings = (JSON.parse(json) as { results: { bindings: { g: { type: string; value: string } }[] } }).results
    .bindings;
  return bindings.filter((b) => b.g.type === 'uri').map((b) => b.g.value);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The named graphs, kept until the next write: a protocol dataset that names them all runs as the union. */
let knownGraphs: Set<string> | undefined;

function storeGraphs(): ReadonlySet<string> {
  // `GRAPH ?g {}` reads the graph names alone: ~35 ms at a million quads in 150 graphs (a scan of the quads: 1.3 s).
  knownGraphs ??= new Set(
    uris(store.query('SELECT ?g WHERE { GRAPH ?g { } }', { results_format: jsonResults }) as string),
  );
  return knownGraphs;
}

function uris(json: string): string[] {
  const bindings = (JSON.parse(json) as { results: { bindings: { g: { type: string; value: string } }[] } }).results
    .bindings;
  return bindings.filter((b) => b.g.type === 'uri').map((b) => b.g.value);
}

/**
 * Drops the named graphs that hold no quads (an update may leave one, CREATE GRAPH makes one). Oxigraph remembers
 * empty graphs but a snapshot cannot, and a non-SILENT DROP, CLEAR or CREATE depends on it: with none left, a graph
 * exists exactly while it holds quads, and replaying the journal over a snapshot meets the graphs the original did.
 */
function dropEmptyGraphs(): void {
  const json = store.query('SELECT ?g WHERE { GRAPH ?g { } FILTER NOT EXISTS { GRAPH ?g { ?s ?p ?o } } }', {
    results_format: jsonResults,
  }) as string;
  const bindings = (JSON.parse(json) as { results: { bindings: { g: { type: string; value: string } }[] } }).results
    .bindings;
  for (const { g } of bindings) if (g.type === 'uri') store.update(`DROP SILENT GRAPH <${g.value}>`);
}

/** Text to send back: UTF-8 bytes in a buffer of their own, moved rather than copied. */
function bytes(text: string): { value: Uint8Array; transfer: ArrayBuffer[] } {
  const value = encoder.encode(text);
  return { value, transfer: transferables([value]) };
}

/** An answer's head and first chunk; the chunker is kept under the cursor only when more chunks follow. */
function open(
  cursor: number,
  chunker: ResultChunker,
  maxChars: number,
): { value: OpenedAnswer; transfer: ArrayBuffer[] } {
  const first = chunker.next(maxChars);
  const value: OpenedAnswer = { ...chunker.head, more: !chunker.done };
  if (value.more) cursors.set(cursor, chunker);
  if (first === undefined) return { value, transfer: [] };
  const encoded = bytes(first);
  value.first = encoded.value;
  return { value, transfer: encoded.transfer };
}

function execute(request: ThreadRequest): { value: unknown; transfer?: ArrayBuffer[] } {
  if (request.op === 'load' || request.op === 'drop' || request.op === 'update') knownGraphs = undefined;
  switch (request.op) {
    case 'load':
      // Batches were checked before they got here (N-Quads syntax, absolute IRIs): `lenient` spares Oxigraph its own
      // IRI validation, ~1.4x faster loads. Measured on Oxigraph 0.5: while the store is small, a load in a
      // transaction is faster than one without; past a few hundred thousand quads transactional loads slow down as the
      // store grows while loads without one keep their pace (bench/store). So: transactions for about the first
      // 250,000 quads loaded (~60 MB of N-Quads), none after.
      store.load(request.data, { format: nquads, lenient: true, no_transaction: loadedBytes >= transactionalBytes });
      loadedBytes += request.data.length;
      return { value: null };
    case 'drop':
      store.update(`DROP SILENT GRAPH <${request.graph}>`);
      return { value: null };
    case 'update': {
      // Oxigraph applies the whole update or, when it fails, nothing of it.
      store.update(decoder.decode(request.data));
      dropEmptyGraphs();
      if (!request.check) return { value: null };
      const outcome: UpdateOutcome = { size: store.size, defaultGraph: store.query('ASK { ?s ?p ?o }') as boolean };
      return { value: outcome };
    }
    case 'query':
    case 'queryOpen': {
      const options: Parameters<typeof store.query>[1] = {
        results_format: request.form === 'CONSTRUCT' || request.form === 'DESCRIBE' ? ntriples : jsonResults,
        ...oxigraphDataset(request.dataset, storeGraphs),
      };
      // Bounded here, before the results cross to the main thread (which would parse all of them).
      // Handed out in chunks, a CONSTRUCT keeps its marker triples until each chunk is cut (see limitResultText).
      const limited = limitResultText(
        request.form,
        store.query(request.sparql, options) as string,
        request.limits ?? {},
        {
          keepMarkers: request.op === 'queryOpen',
        },
      );
      if ('exceeded' in limited) return { value: limited };
      if (request.op === 'query') return bytes(limited.text);
      return open(request.cursor, new ResultChunker(request.form, limited.text, limited.markers), request.maxChars);
    }
    case 'graphOpen': {
      const text = store.dump({ format: ntriples, from_graph_name: oxigraph.namedNode(request.graph) });
      return open(request.cursor, new ResultChunker('CONSTRUCT', text), request.maxChars);
    }
    case 'cursorNext': {
      const chunker = cursors.get(request.cursor);
      if (!chunker)
        throw new Error(
          'the answer is no longer there (the store was restarted, or the answer was left unread too long)',
        );
      const chunk = chunker.next(request.maxChars);
      if (chunk !== undefined) return bytes(chunk);
      cursors.delete(request.cursor);
      return { value: new Uint8Array(0) };
    }
    case 'cursorClose':
      cursors.delete(request.cursor);
      return { value: null };
    case 'graphs': {
      const json = store.query('SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g', {
        results_format: jsonResults,
      }) as string;
      const bindings = (
        JSON.parse(json) as { results: { bindings: { g: { type: string; value: string }; n: { value: string } }[] } }
      ).results.bindings;
      return {
        value: bindings.filter((b) => b.g.type === 'uri').map((b) => ({ graph: b.g.value, quads: Number(b.n.value) })),
      };
    }
    case 'hasGraph':
      return { value: store.query(`ASK { GRAPH <${request.graph}> { ?s ?p ?o } }`) as boolean };
    case 'graphText':
      return bytes(store.dump({ format: ntriples, from_graph_name: oxigraph.namedNode(request.graph) }));
    case 'size':
      return { value: store.size };
    case 'countNew': {
      // How many distinct quads of a batch the store does not have yet (near the ceiling only: it is slow).
      const seen = new Set<string>();
      let fresh = 0;
      for (const quad of oxigraph.parse(request.data, { format: nquads })) {
        const key = quad.toString();
        if (seen.has(key)) continue;
        seen.add(key);
        if (!store.has(quad)) fresh += 1;
      }
      return { value: fresh };
    }
    case 'snapshotBegin':
      snapshotGraphs = graphNames();
      return { value: snapshotGraphs.length };
    case 'snapshotNext': {
      // The next graphs of the snapshot as N-Quads, in one chunk of about maxBytes, moved to the main thread. An empty
      // answer ends the snapshot; without one in progress (a restarted worker) this fails. Each graph is dumped as
      // N-Triples (every raw newline ends a statement: literals escape theirs) and given its graph name.
      if (!snapshotGraphs) throw new Error('no snapshot in progress');
      const parts: string[] = [];
      let size = 0;
      if (snapshotGraphs.length === 0) snapshotGraphs = undefined;
      while (snapshotGraphs && snapshotGraphs.length > 0 && size < request.maxBytes) {
        const graph = snapshotGraphs.shift()!;
        const triples = store.dump({ format: ntriples, from_graph_name: oxigraph.namedNode(graph) });
        if (triples.length === 0) continue;
        const quads = triples.replaceAll(' .\n', ` <${graph}> .\n`);
        parts.push(quads);
        size += quads.length;
      }
      return parts.length === 0 ? { value: new Uint8Array(0) } : bytes(parts.join(''));
    }
  }
}

port.on('message', (request: ThreadRequest) => {
  let response: ThreadResponse;
  let transfer: ArrayBuffer[] | undefined;
  try {
    const result = execute(request);
    response = { id: request.id, ok: true, value: result.value };
    transfer = result.transfer;
  } catch (error) {
    const fatal = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
    response = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error), fatal };
  }
  port.postMessage(response, transfer);
});

port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies ThreadResponse);
