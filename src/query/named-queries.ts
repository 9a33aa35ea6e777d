// The named queries: one `.rq` file per query in queries/, its header giving title, description, parameters and
// computed columns (`@percentiles`, `@quotient`). Lists them with their metadata, and prepares (parameters bound) or
// runs one by name, the computed columns added to its answer. Query files given by a user are read the same way, so
// their headers work too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { queriesDir } from '../core/paths.js';
import { McpLdError } from '../core/problem.js';
import type { QueryForm, QueryResult, QueryText, QuadStore } from '../store/quad-store.js';
import { readQueryText, resultsJson } from '../store/sparql-results.js';
import {
  bindParameters,
  modifierParameters,
  parameterUseProblem,
  type ParameterValues,
  type QueryParameter,
} from './parameters.js';
import type { Query } from 'sparqljs';
import { generateQuery, parseQuery, selectedVariables, type ParsedQuery } from './parse-query.js';
import { rowOrder } from './term-order.js';
import { applyPercentiles, type PercentileDeclaration } from './percentiles.js';
import { parseQueryHeader } from './query-header.js';
import { applyQuotients, type QuotientDeclaration } from './quotients.js';
import { orderAndCut, perSessionProblem, type PerSessionDeclaration } from './per-session.js';
import { runQuery, runQueryText, type RunOptions } from './run-query.js';
import type { SparqlLimits } from './sparql-limits.js';
import type { SessionPartials } from './session-partials.js';

export interface NamedQuery {
  /** The file name without `.rq`. */
  name: string;
  title: string;
  description: string;
  parameters: QueryParameter[];
  form: QueryForm;
  /** Columns computed from the answer: the percentiles of a list, the quotient of two columns. */
  percentiles: PercentileDeclaration[];
  quotients: QuotientDeclaration[];
  /** How its answer is put together from its answers over each session (`@per-session`; session-partials.ts). */
  perSession?: PerSessionDeclaration;
  file: string;
  /** The query as written, checked, parameters unbound. */
  query: ParsedQuery;
}

/**
 * Reads one query file (or text). Its declared parameters must be bindable (see parameterUseProblem); `strict` (the
 * named queries) also requires a name in lower case, a title and a description, and refuses unknown header tags.
 */
export function readQuery(file: string, text: string, strict = false, limits?: SparqlLimits): NamedQuery {
  const source = path.basename(file);
  const header = parseQueryHeader(text, source, strict);
  const query = parseQuery(text, { source, ...(limits ? { limits } : {}) });
  const name = source.replace(/\.rq$/, '');
  const problem = (detail: string) =>
    strict
      ? McpLdError.of('query.named-invalid', { detail: `${source}: ${detail}` })
      : McpLdError.of('query.header-invalid', { detail: `${source}: ${detail}` });
  if (strict) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw problem('a named query is named in lower case, digits and hyphens');
    if (!header.title) throw problem('the header has no @title');
    if (!header.description) throw problem('the header has no @description');
  }
  for (const parameter of header.parameters) {
    if ((modifierParameters as readonly string[]).includes(parameter.name)) continue;
    const misuse = parameterUseProblem(query.tree, parameter.name);
    if (misuse) throw problem(`parameter ${parameter.name}: ${misuse}`);
  }
  if (header.percentiles.length > 0 || header.quotients.length > 0) {
    const selected = selectedVariables(query.tree);
    const tag = header.percentiles.length > 0 ? '@percentiles' : '@quotient';
    if (query.tree.queryType !== 'SELECT' || selected.includes('*'))
      throw problem(`${tag} needs a SELECT that names the variables it selects`);
    for (const { list, columns } of header.percentiles) {
      if (!selected.includes(list)) throw problem(`@percentiles names ?${list}, which the query does not select`);
      const taken = columns.find((c) => selected.includes(c.name));
      if (taken) throw problem(`@percentiles column ?${taken.name} is also selected by the query`);
    }
    for (const { name, numerator, denominator } of header.quotients) {
      const missing = [numerator, denominator].find((v) => !selected.includes(v));
      if (missing) throw problem(`@quotient ${name} names ?${missing}, which the query does not select`);
      if (selected.includes(name)) throw problem(`@quotient column ?${name} is also selected by the query`);
    }
  }
  if (header.perSession) {
    const unfit = perSessionProblem(header.perSession, query.tree);
    if (unfit) throw problem(`@per-session: ${unfit}`);
  }
  return {
    name,
    title: header.title ?? name,
    description: header.description ?? '',
    parameters: header.parameters,
    form: query.form,
    percentiles: header.percentiles,
    quotients: header.quotients,
    ...(header.perSession ? { perSession: header.perSession } : {}),
    file,
    query,
  };
}

/** The query with parameter values bound (each checked by its declared type; defaults filled in). */
export function prepareQuery(query: NamedQuery, values: ParameterValues = {}): ParsedQuery {
  return bindParameters(query.query, query.parameters, values, query.name);
}

/** The answer of a query read by readQuery with the columns its header computes (`@percentiles`, `@quotient`). */
export function completeAnswer(query: NamedQuery, answer: QueryResult): QueryResult {
  return applyQuotients(applyPercentiles(answer, query.percentiles, query.name), query.quotients, query.name);
}

/** A query as the store is given it, and how its answer is completed. */
interface AnswerPlan {
  sent: ParsedQuery;
  complete(answer: QueryResult): QueryResult;
}

/**
 * How a query read by readQuery (its parameters bound: `prepared`) is answered. One with `@percentiles` is sent without
 * its ORDER BY, LIMIT and OFFSET, which are applied here (term-order.ts), before its columns are computed: its lists
 * are long texts, which Virtuoso 7.2.5 refuses to sort (SR478, "Value of ANY type column too long", past ~4 KB), and
 * its answer is one row per group. An ORDER BY that term-order.ts cannot evaluate is left to the store.
 */
export function planAnswer(query: NamedQuery, prepared: ParsedQuery): AnswerPlan {
  const plain = { sent: prepared, complete: (answer: QueryResult) => completeAnswer(query, answer) };
  const tree = prepared.tree as Query & { limit?: number; offset?: number };
  if (query.percentiles.length === 0 || tree.queryType !== 'SELECT') return plain;
  if (!tree.order?.length && tree.limit === undefined && tree.offset === undefined) return plain;
  const { order, limit, offset, ...rest } = tree;
  const selected = selectedVariables(tree);
  if (order?.length) {
    try {
      rowOrder(order, new Set(selected), tree.variables);
    } catch {
      return plain;
    }
  }
  return {
    sent: parseQuery(generateQuery(rest as Query)),
    complete: (answer) => {
      if (answer.form !== 'SELECT') return completeAnswer(query, answer);
      const cut = { ...(limit !== undefined ? { limit } : {}), ...(offset !== undefined ? { offset } : {}) };
      return completeAnswer(query, { ...answer, rows: orderAndCut(answer.rows, tree, new Set(selected), cut) });
    },
  };
}

/** Runs a query read by readQuery: its parameters bound, its computed columns added to the answer. */
export async function runNamedQuery(
  store: QuadStore,
  query: NamedQuery,
  values: ParameterValues = {},
  options: RunOptions = {},
): Promise<QueryResult> {
  const plan = planAnswer(query, prepareQuery(query, values));
  return plan.complete(await runQuery(store, plan.sent, options));
}

/**
 * The same, answered as text (see runQueryText). A query with computed columns has its answer read, completed and
 * written again (SPARQL 1.1 JSON results); that answer is one row per group, so this is quick. With `partials`, a
 * query they keep is answered from its sessions' answers (session-partials.ts).
 */
export async function runNamedQueryText(
  store: QuadStore,
  query: NamedQuery,
  values: ParameterValues = {},
  options: RunOptions = {},
  partials?: SessionPartials,
): Promise<QueryText> {
  const kept = await partials?.answer(query, values, options);
  if (kept) {
    const completed = completeAnswer(query, kept) as Extract<QueryResult, { form: 'SELECT' }>;
    const data = new TextEncoder().encode(JSON.stringify(resultsJson(completed)));
    // Past the byte limit the whole query gives the answer, and so the error the store gives for it.
    if (options.maxBytes === undefined || data.length <= options.maxBytes) return { form: 'SELECT', data };
  }
  const plan = planAnswer(query, prepareQuery(query, values));
  const answer = await runQueryText(store, plan.sent, options);
  if (query.percentiles.length === 0 && query.quotients.length === 0) return answer;
  const completed = plan.complete(readQueryText(answer)) as Extract<QueryResult, { form: 'SELECT' }>;
  return { form: answer.form, data: new TextEncoder().encode(JSON.stringify(resultsJson(completed))) };
}

export class NamedQueries {
  private loaded: Map<string, NamedQuery> | undefined;

  constructor(readonly dir: string = queriesDir) {}

  /** Every named query, by name. */
  list(): NamedQuery[] {
    return [...this.load().values()];
  }

  get(name: string): NamedQuery {
    const query = this.load().get(name);
    if (!query) {
      throw McpLdError.of('query.unknown', {
        detail: `there is no named query ${JSON.stringify(name)}; the named queries: ${[...this.load().keys()].join(', ')}`,
      });
    }
    return query;
  }

  prepare(name: string, values: ParameterValues = {}): ParsedQuery {
    return prepareQuery(this.get(name), values);
  }

  run(store: QuadStore, name: string, values: ParameterValues = {}, options: RunOptions = {}): Promise<QueryResult> {
    return runNamedQuery(store, this.get(name), values, options);
  }

  /** The same, answered as text (see runNamedQueryText). */
  runText(
    store: QuadStore,
    name: string,
    values: ParameterValues = {},
    options: RunOptions = {},
    partials?: SessionPartials,
  ): Promise<QueryText> {
    return runNamedQueryText(store, this.get(name), values, options, partials);
  }

  private load(): Map<string, NamedQuery> {
    if (!this.loaded) {
      const files = readdirSync(this.dir)
        .filter((f) => f.endsWith('.rq'))
        .sort();
      this.loaded = new Map(
        files.map((f) => {
          const file = path.join(this.dir, f);
          const query = readQuery(file, readFileSync(file, 'utf8'), true);
          return [query.name, query];
        }),
      );
    }
    return this.loaded;
  }
}
