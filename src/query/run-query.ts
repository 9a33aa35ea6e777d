// Runs one read-only SPARQL query over a QuadStore: checked first (parse-query), then given to the store with its
// dataset (the protocol's, else the query's FROM, else the union of all session graphs or one session's graph) and
// the time limit. Knows no store implementation, no HTTP, no CLI.
import { McpLdError, isMcpLdError } from '../core/problem.js';
import { IriMinter } from '../rdf/index.js';
import type {
  QueryDataset,
  QueryOptions,
  QueryResult,
  QueryText,
  QuadStore,
  ResultStream,
} from '../store/quad-store.js';
import { parseQuery, type ParsedQuery } from './parse-query.js';
import { boundRows, type BoundedQuery } from './bound-rows.js';
import { hasIriScheme } from '../core/iri.js';

export interface RunOptions {
  /** The dataset (the protocol's default-graph-uri / named-graph-uri), replacing the query's FROM / FROM NAMED. */
  dataset?: QueryDataset;
  /** Unless the query names its dataset: the default graph is this session's graph (its IRI), not the union. */
  session?: string;
  /** Time limit in milliseconds, enforced by the store (McpLdError `query.timeout` when exceeded). */
  timeoutMs?: number;
  /** Most rows of the answer (see bound-rows.ts; `query.result-too-large` past it). */
  maxRows?: number;
  /** Most bytes of the answer, as the store serializes it (`query.result-too-large` past it). */
  maxBytes?: number;
}

/** The graph IRI of a session given by IRI or by id (ids are minted with `base`, default `urn:mcp-ld:`). */
export function sessionGraph(session: string, base?: string): string {
  return hasIriScheme(session) ? session : new IriMinter(base).session(session);
}

/**
 * Runs a query: text (parsed here), a parsed query (its rows bounded here by `maxRows`), or one already bounded
 * (boundRows, e.g. in another thread).
 */
export function runQuery(
  store: QuadStore,
  query: string | ParsedQuery | BoundedQuery,
  options: RunOptions = {},
): Promise<QueryResult> {
  return ask(store, query, options, (text, storeOptions) => store.query(text, storeOptions));
}

/** The same, answered as text (SPARQL JSON results or N-Triples), for another thread to read and write. */
export function runQueryText(
  store: QuadStore,
  query: string | ParsedQuery | BoundedQuery,
  options: RunOptions = {},
): Promise<QueryText> {
  return ask(store, query, options, (text, storeOptions) => store.queryText(text, storeOptions));
}

/**
 * The same, handed over a chunk at a time by a store that can (QuadStore.queryStream; the limits are checked before
 * the first chunk). SELECT, CONSTRUCT and DESCRIBE only.
 */
export function runQueryStream(
  store: QuadStore,
  query: string | ParsedQuery | BoundedQuery,
  options: RunOptions = {},
): Promise<ResultStream> {
  if (!store.queryStream)
    return Promise.reject(new Error(`the ${store.kind} store hands no answer over a chunk at a time`));
  return ask(store, query, options, (text, storeOptions) => store.queryStream!(text, storeOptions));
}

async function ask<T>(
  store: QuadStore,
  query: string | ParsedQuery | BoundedQuery,
  options: RunOptions,
  send: (text: string, options: QueryOptions) => Promise<T>,
): Promise<T> {
  const parsed = typeof query === 'string' ? parseQuery(query) : query;
  const bounded = 'tree' in parsed ? boundRows(parsed, options.maxRows, store.sortedRowLimit) : parsed;
  if (options.timeoutMs !== undefined && (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0)) {
    throw McpLdError.of('query.timeout-invalid', {
      detail: `the time limit must be a positive number of milliseconds, not ${options.timeoutMs}`,
    });
  }
  const storeOptions: QueryOptions = { graph: options.session ?? 'union' };
  if (options.dataset) storeOptions.dataset = options.dataset;
  if (options.timeoutMs !== undefined) storeOptions.timeoutMs = options.timeoutMs;
  if (bounded.maxRows !== undefined) storeOptions.maxRows = bounded.maxRows;
  if (options.maxBytes !== undefined) storeOptions.maxBytes = options.maxBytes;
  try {
    return await send(bounded.text, storeOptions);
  } catch (error) {
    if (isMcpLdError(error)) throw error;
    throw McpLdError.of('query.failed', { detail: (error as Error).message ?? String(error) });
  }
}
