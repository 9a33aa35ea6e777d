// The one interface of the knowledge-graph store: one named graph per MCP session, SPARQL 1.1 over them.
// Two implementations (embedded Oxigraph, remote SPARQL 1.1 endpoint) pass one shared test suite.
import type { Quad, Term } from '@rdfjs/types';
import type { StoreChanges } from './store-changes.js';

export interface IngestReceipt {
  /** Quads in the batch (as sent; the store may already have had some of them). */
  quads: number;
  /** Session graphs the batch touched. */
  graphs: string[];
}

export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

export type QueryResult =
  | { form: 'SELECT'; variables: string[]; rows: Map<string, Term>[] }
  | { form: 'ASK'; boolean: boolean }
  | { form: 'CONSTRUCT' | 'DESCRIBE'; quads: Quad[] };

/** A query's answer as text: SPARQL 1.1 JSON results (SELECT, ASK) or N-Triples (CONSTRUCT, DESCRIBE), UTF-8. */
export interface QueryText {
  form: QueryForm;
  data: Uint8Array;
}

/**
 * An RDF dataset as the SPARQL 1.1 Protocol names it (default-graph-uri, named-graph-uri; SPARQL 1.1 Query §13.2):
 * the default graph is the merge of `defaultGraphs` (an empty graph when there are none), the named graphs are
 * `namedGraphs` (none when empty). Graph names that are no session graph are empty graphs, never an error.
 */
export interface QueryDataset {
  defaultGraphs: string[];
  namedGraphs: string[];
}

/**
 * Which dataset a query runs over, first match wins: `dataset` (the protocol's); the query's own FROM / FROM NAMED;
 * `graph`; else the union of all session graphs as the default graph, and every session graph as a named graph.
 */
export interface QueryOptions {
  /**
   * The dataset, replacing the one the query names (FROM / FROM NAMED); absolute IRIs (else `store.invalid-graph`,
   * 400).
   */
  dataset?: QueryDataset;
  /**
   * When neither `dataset` nor the query names a dataset: the default graph is the union of all session graphs
   * (`union`, the default) or the graph of one session (its IRI); the named graphs are every session graph.
   */
  graph?: 'union' | string;
  /** Time limit in milliseconds; a query that runs longer fails with McpLdError code `query.timeout` (504). */
  timeoutMs?: number;
  /**
   * Most rows (SELECT), solutions (CONSTRUCT, counted by the marker triples of query/bound-rows.ts) or triples
   * (DESCRIBE) of the answer; one more fails with `query.result-too-large` (422).
   */
  maxRows?: number;
  /** Most bytes of the answer as the store serializes it; more fails with `query.result-too-large` (422). */
  maxBytes?: number;
}

export interface IngestOptions {
  /** The caller hands the bytes over (it will not touch them again): the store may keep them instead of a copy. */
  handOver?: boolean;
  /**
   * The batch is N-Quads this process's lifter wrote (NQuadsSink), with the statements and graphs it counted: valid
   * by construction (it mints its IRIs from encoded segments, checks the schema's and the base once, escapes every
   * literal), so an embedded store takes the counts instead of checking the text again (about a third of the CPU
   * `mcp-ld ingest` spends beside the store's load). Only in process: no store takes it from a socket or HTTP.
   * test/fuzz/converter.test.ts holds the lifter to it: the check accepts all it writes, with the same counts.
   */
  lifted?: { quads: number; graphs: string[] };
}

/** A batch checked by `prepareIngest`: stored by `ingest` (as QuadStore.ingest stores it), or dropped by `discard`. */
export interface PreparedIngest {
  ingest(): Promise<IngestReceipt>;
  discard(): void;
}

export interface UpdateOptions {
  /** Time limit in milliseconds; an update that runs longer fails with McpLdError code `update.timeout` (504). */
  timeoutMs?: number;
}

/**
 * An answer handed over a chunk at a time (result-chunks.ts), so that nothing past the store holds all of it: a
 * SELECT's rows as JSON arrays of SPARQL 1.1 JSON bindings, a graph's triples as N-Triples lines, UTF-8.
 */
export interface ResultStream {
  form: Exclude<QueryForm, 'ASK'>;
  /** A SELECT's variables (none for a graph). */
  variables: string[];
  /** Whether the first chunk holds every row (the answer is small, and already here): no chunk more is asked for. */
  whole?: boolean;
  /** The next chunk, undefined after the last. Fails when the store lost the answer (restarted, or idle too long). */
  next(): Promise<Uint8Array | undefined>;
  /** Lets the answer go before its end (the client went away); harmless after the end or twice. */
  close(): Promise<void>;
}

export interface GraphSummary {
  graph: string;
  quads: number;
}

export interface QuadStore {
  readonly kind: 'embedded' | 'remote';
  /**
   * The most rows the store sorts for an ORDER BY with a LIMIT (Virtuoso's MaxSortedTopRows; it refuses more, SR353),
   * where it has such a limit. An ordered query is then not bounded by a LIMIT of its own (bound-rows.ts) past it: the
   * store's answer is cut as it is read instead.
   */
  readonly sortedRowLimit?: number;
  /**
   * Adds a batch of N-Quads (quads in session graphs; no default-graph quads), as text or as its UTF-8 bytes (the
   * bytes are copied before ingest returns unless handed over: the caller may reuse its buffer). All or nothing: when
   * it
   * resolves, the batch is stored (and, for a durable store, on disk); when it rejects, nothing of it is.
   * Invalid N-Quads are rejected with McpLdError (400) before anything is written.
   */
  ingest(nquads: string | Uint8Array, options?: IngestOptions): Promise<IngestReceipt>;
  /**
   * The first half of `ingest`, ahead of it (embedded stores in this process only): the batch is copied before this
   * returns and checked (400 when invalid), but nothing is written until the answer's `ingest` is called — so a writer
   * can have the next batch checked while this one is stored, and still store its batches one after the other.
   */
  prepareIngest?(nquads: string | Uint8Array, options?: IngestOptions): Promise<PreparedIngest>;
  /** A read-only SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE). */
  query(sparql: string, options?: QueryOptions): Promise<QueryResult>;
  /** The same query answered as text (readQueryText in sparql-results.ts reads it), for another thread to read. */
  queryText(sparql: string, options?: QueryOptions): Promise<QueryText>;
  /**
   * Applies a SPARQL 1.1 Update that src/query/parse-update.ts accepted (the store applies it as it is: it checks
   * nothing of LOAD, SERVICE or graph names itself). Embedded: all or nothing, and durable like an ingest (journaled
   * once applied, before it resolves). Remote: sent to the update endpoint, its WHERE seeing the session graphs only;
   * how atomic it is is the store's affair. A store that refuses it rejects with `update.failed` (400).
   */
  update(sparql: string, options?: UpdateOptions): Promise<void>;
  /**
   * The same answer as `queryText` (SELECT, CONSTRUCT, DESCRIBE; same limits, checked before the first chunk), handed
   * over a chunk at a time. Absent where a store gives none (the route then answers from `queryText`).
   */
  queryStream?(sparql: string, options?: QueryOptions): Promise<ResultStream>;
  /** One graph's triples a chunk at a time; undefined when the graph does not exist. */
  graphStream?(graph: string): Promise<ResultStream | undefined>;
  /** Every session graph with its size. */
  graphs(): Promise<GraphSummary[]>;
  /** The quads of one graph (empty when it does not exist). */
  graphQuads(graph: string): Promise<Quad[]>;
  /** The triples of one graph as N-Triples, UTF-8 (empty when it does not exist), for a thread to parse. */
  graphText(graph: string): Promise<Uint8Array>;
  /** Removes one session graph; false when there was none. */
  deleteGraph(graph: string): Promise<boolean>;
  /** Quads in the store. */
  size(): Promise<number>;
  /**
   * The writes this store applies, as they are applied: the embedded store that holds its engine (in memory, or the
   * owner of a data directory, whoever the write came from). Absent where writes happen elsewhere (a client of a data
   * directory's owner, a remote store): a listener then looks at `size` now and then.
   */
  readonly changes?: StoreChanges;
  close(): Promise<void>;
}
