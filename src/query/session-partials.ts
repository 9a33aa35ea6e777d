// Keeps, for the named queries that declare `@per-session` (per-session.ts), each session's answer, and answers them
// from those: a write reruns the query over the sessions it touched only (the store tells them: QuadStore.changes),
// so at a million quads a console page costs a few small queries and a merge, not a pass over every message. Owns
// the kept answers and when they are made; how they are merged is per-session.ts's. Only for a store that tells its
// writes with their graphs (the embedded store, in memory or the owner of a data directory): elsewhere, and for a
// query or parameters it does not keep (yet), the caller runs the query whole.
//
// What is kept is made in the background, one session's query at a time (the first answers of a new query and
// parameters come from the whole query meanwhile); a write marks its sessions stale; an answer reruns the stale
// ones first when they are few, else it is the whole query's while they are rerun behind it. A write whose sessions
// the store cannot tell (a SPARQL Update) drops everything kept. Each session's answer is as consistent as a query
// over it; sessions are independent, so the answer is one over every session as it stood when it was read.
import type { Term } from '@rdfjs/types';
import type { QuadStore } from '../store/quad-store.js';
import { readQueryText } from '../store/sparql-results.js';
import type { StoreChange } from '../store/store-changes.js';
import { prepareQuery, type NamedQuery } from './named-queries.js';
import { rowWindow, type ParameterValues } from './parameters.js';
import { selectedVariables, type ParsedQuery } from './parse-query.js';
import { mergeSessionRows, NotMergeable, sessionQuery } from './per-session.js';
import { runQueryText, type RunOptions } from './run-query.js';
import type { QueryResult } from '../store/quad-store.js';

interface SessionPartialLimits {
  /** Query-and-parameters kept at once (the least recently asked goes first). */
  maxKept: number;
  /** Rows kept for one query and parameters, all sessions together; past it that one is answered whole. */
  maxRows: number;
  /** Stale sessions an answer reruns before it is given; more, and it is the whole query's while they are rerun. */
  maxStaleRerun: number;
  /** Time limit of each session's query, in ms. */
  timeoutMs: number;
}

const limits: SessionPartialLimits = {
  maxKept: 64,
  maxRows: 200_000,
  maxStaleRerun: 16,
  timeoutMs: 30_000,
};

type Row = Map<string, Term>;

/** One query with one set of parameter values (but `limit` and `offset`): its answer over each session. */
interface Kept {
  query: NamedQuery;
  /** The query with those values bound, as the answer is ordered and its columns named. */
  prepared: ParsedQuery;
  /** What each session's answer comes from (without LIMIT and OFFSET, with the variables the order reads). */
  perSession: ParsedQuery;
  variables: string[];
  bySession: Map<string, Row[]>;
  rows: number;
  /** Sessions whose answer is to be (re)computed. */
  stale: Set<string>;
  /** Every session has had its answer computed once. */
  ready: boolean;
  /** The rerun under way, if any (one at a time). */
  rerun?: Promise<void>;
}

export class SessionPartials {
  private readonly kept = new Map<string, Kept>();
  /** Queries and parameters found too large to keep, or whose values cannot be merged: always answered whole. */
  private readonly unkept = new Set<string>();
  private readonly stopListening: () => void;
  private closed = false;

  constructor(private readonly store: QuadStore) {
    if (!store.changes) throw new Error('session partials need a store that tells its writes (QuadStore.changes)');
    this.stopListening = store.changes.listen((change) => this.changed(change));
  }

  /**
   * The answer of `query` with `values`, put together from the sessions' answers when they are kept and fresh (or
   * few are stale: those are rerun first); undefined when the caller is to run the query whole (it is not kept yet:
   * from now on it is being made; it cannot be kept; the options name a dataset of their own).
   */
  async answer(query: NamedQuery, values: ParameterValues, options: RunOptions = {}): Promise<QueryResult | undefined> {
    if (!query.perSession || this.closed || options.dataset || options.session) return undefined;
    // Keyed by the values as given (checked and bound once, when first seen): binding costs ms for some queries. Every
    // page (limit and offset) is cut from the same kept answer.
    const { limit, offset, others } = rowWindow(query.query, query.parameters, values);
    const key = `${query.name}\n${JSON.stringify(Object.entries(others).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    if (this.unkept.has(key)) return undefined;
    let kept = this.kept.get(key);
    if (!kept) {
      const prepared = prepareQuery(query, others);
      const perSession = sessionQuery(prepared);
      const variables = selectedVariables(prepared.tree);
      kept = { query, prepared, perSession, variables, bySession: new Map(), rows: 0, stale: new Set(), ready: false };
      this.keep(key, kept);
      void this.rerun(key, kept, true);
      return undefined;
    }
    // Most recently asked last, so that the first in the map is the one to let go.
    this.kept.delete(key);
    this.kept.set(key, kept);
    if (!kept.ready || kept.stale.size > limits.maxStaleRerun) {
      void this.rerun(key, kept, false);
      return undefined;
    }
    while ((kept.stale.size > 0 || kept.rerun) && this.kept.get(key) === kept) await this.rerun(key, kept, false);
    if (this.kept.get(key) !== kept) return undefined;
    // No session with rows: an answer of no rows, but for a one-row answer (its whole query gives that row, zeros).
    if (kept.bySession.size === 0 && query.perSession.by?.length === 0) return undefined;
    try {
      const { variables } = kept;
      const rows = mergeSessionRows(query.perSession, kept.prepared.tree, variables, kept.bySession.values(), {
        ...(limit !== undefined ? { limit } : {}),
        ...(offset !== undefined ? { offset } : {}),
      });
      if (options.maxRows !== undefined && rows.length > options.maxRows) return undefined;
      return { form: 'SELECT', variables, rows };
    } catch (error) {
      if (!(error instanceof NotMergeable)) throw error;
      this.forget(key);
      return undefined;
    }
  }

  /** Resolves once nothing is being made (what was asked for so far is kept, or found unkeepable). */
  async settled(): Promise<void> {
    for (;;) {
      const under = [...this.kept.values()].flatMap((kept) => (kept.rerun ? [kept.rerun] : []));
      if (under.length === 0) return;
      await Promise.all(under);
    }
  }

  /** Stops listening to the store; what is under way ends after its current query. */
  close(): void {
    this.closed = true;
    this.stopListening();
    this.kept.clear();
  }

  private keep(key: string, kept: Kept): void {
    this.kept.set(key, kept);
    while (this.kept.size > limits.maxKept) this.kept.delete(this.kept.keys().next().value!);
  }

  private forget(key: string): void {
    this.kept.delete(key);
    this.unkept.add(key);
  }

  private changed({ graphs }: StoreChange): void {
    if (graphs.length === 0) {
      // A write the store cannot place (a SPARQL Update): nothing kept can be trusted.
      this.kept.clear();
      return;
    }
    for (const kept of this.kept.values()) for (const graph of graphs) kept.stale.add(graph);
  }

  /** Reruns the stale sessions of `kept` (every session first, when `listing`); one rerun at a time per query. */
  private rerun(key: string, kept: Kept, listing: boolean): Promise<void> {
    kept.rerun ??= this.rerunSessions(key, kept, listing).finally(() => (kept.rerun = undefined));
    return kept.rerun;
  }

  private async rerunSessions(key: string, kept: Kept, listing: boolean): Promise<void> {
    try {
      if (listing) for (const { graph } of await this.store.graphs()) kept.stale.add(graph);
      while (kept.stale.size > 0) {
        if (this.closed || this.kept.get(key) !== kept) return;
        const graph = kept.stale.values().next().value!;
        // Taken off before it is read: a write to it from now on marks it stale again.
        kept.stale.delete(graph);
        const answer = readQueryText(
          await runQueryText(this.store, kept.perSession, {
            dataset: { defaultGraphs: [graph], namedGraphs: [graph] },
            timeoutMs: limits.timeoutMs,
          }),
        );
        if (answer.form !== 'SELECT') throw new NotMergeable('not a SELECT');
        kept.rows += answer.rows.length - (kept.bySession.get(graph)?.length ?? 0);
        if (answer.rows.length === 0) kept.bySession.delete(graph);
        else kept.bySession.set(graph, answer.rows);
        if (kept.rows > limits.maxRows) throw new NotMergeable('too many rows to keep');
      }
      kept.ready = true;
    } catch (error) {
      // A value that cannot be merged, or too many rows: this one is answered whole from now on. Anything else (the
      // store busy, a time limit): made again when next asked.
      if (error instanceof NotMergeable) this.forget(key);
      else this.kept.delete(key);
    }
  }
}
