// A named query's answer put together from its answers over each session's graph alone (`@per-session` in its
// header; session-partials.ts keeps those answers and reruns only the sessions a write touched). The declaration
// says how: without columns, every row of the answer belongs to one session, and the answer is all of them; with
// `by=` (the grouping columns; none for a one-row answer) the rows of equal groups are merged, column by column:
// `sum` (integers and decimals, exactly), `min` and `max` (SPARQL's order), `concat` (space-separated lists, as
// @percentiles reads them) and `union` (space-separated sets). Then the query's ORDER BY (term-order.ts), and its
// LIMIT and OFFSET: each session's query has none, so that one kept answer serves every page. A query whose rows each
// belong to one session may order by variables it does not select: each session's query selects them too, and the
// merged answer drops them. Pure.
import { DataFactory } from 'n3';
import type { Term } from '@rdfjs/types';
import type { Query } from 'sparqljs';
import { xsd } from '../rdf/index.js';
import { decimalText, readDecimal } from './quotients.js';
import { compareTerms, rowOrder, sortRows } from './term-order.js';
import { findInTree, generateQuery, parseQuery, selectedVariables, type ParsedQuery } from './parse-query.js';

const mergeOps = ['sum', 'min', 'max', 'concat', 'union'] as const;
type MergeOp = (typeof mergeOps)[number];

export interface PerSessionDeclaration {
  /** The grouping columns; undefined: each row belongs to one session, and the rows are not merged. */
  by?: string[];
  /** How each other column of a group is merged. */
  merged: Map<string, MergeOp>;
}

type Row = Map<string, Term>;

/** A row the declaration cannot merge (a double, a list that is no text): the answer is to be computed whole. */
export class NotMergeable extends Error {}

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads `[by=A,B] [sum=C,D] [min=…] [max=…] [concat=…] [union=…]` (after `@per-session`); a message, or it. */
export function parsePerSession(text: string): PerSessionDeclaration | string {
  const declaration: PerSessionDeclaration = { merged: new Map() };
  const form = `expected "@per-session" alone (each row of one session) or with "by=COLUMNS" and ${mergeOps.map((op) => `${op}=COLUMNS`).join(', ')} (columns separated by commas)`;
  for (const part of text.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([a-z]+)=(.*)$/.exec(part);
    if (!match) return `${form}, not ${JSON.stringify(part)}`;
    const [, op, list] = match as unknown as [string, string, string];
    const columns = list === '' ? [] : list.split(',').map((c) => c.replace(/^\?/, ''));
    const bad = columns.find((c) => !variableName.test(c));
    if (bad !== undefined) return `${JSON.stringify(bad)} is not a column name`;
    if (op === 'by') {
      if (declaration.by) return 'by= is given twice';
      declaration.by = columns;
      continue;
    }
    if (!(mergeOps as readonly string[]).includes(op)) return `${form}; ${JSON.stringify(op)} is not one of them`;
    if (columns.length === 0) return `${op}= names no column`;
    for (const column of columns) {
      if (declaration.merged.has(column)) return `the column ${column} is merged twice`;
      declaration.merged.set(column, op as MergeOp);
    }
  }
  if (declaration.merged.size > 0) declaration.by ??= [];
  for (const column of declaration.by ?? [])
    if (declaration.merged.has(column)) return `the column ${column} is both a group column and merged`;
  return declaration;
}

/** The variables an ORDER BY reads that the query does not select (each session's query selects them too). */
function orderOnlyVariables(tree: Query): string[] {
  if (tree.queryType !== 'SELECT') return [];
  const selected = new Set(selectedVariables(tree));
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record['type'] === 'aggregate') return; // read from the column the query selects it as
    if (record['termType'] === 'Variable') {
      if (!selected.has(record['value'] as string)) found.add(record['value'] as string);
      return;
    }
    if ('termType' in record) return;
    Object.values(record).forEach(visit);
  };
  visit((tree.order ?? []).map((ordering) => ordering.expression));
  return [...found];
}

/**
 * What makes the declaration unfit for the query, or undefined: a SELECT whose every selected column is a group
 * column or merged (when it merges), with no LIMIT or OFFSET in a sub-query, ordered by what term-order.ts evaluates
 * (over variables it does not select only when its rows each belong to one session and are not DISTINCT).
 */
export function perSessionProblem(declaration: PerSessionDeclaration, tree: Query): string | undefined {
  if (tree.queryType !== 'SELECT') return 'it needs a SELECT';
  const selected = selectedVariables(tree);
  if (selected.includes('*')) return 'it needs a SELECT that names the variables it selects';
  const cutInside = findInTree(tree.where ?? [], (record) =>
    record['type'] === 'query' && (record['limit'] !== undefined || record['offset'] !== undefined) ? true : undefined,
  );
  if (cutInside) return 'the answer of each session would be cut by the LIMIT or OFFSET of a sub-query';
  if (declaration.by) {
    const named = new Set([...declaration.by, ...declaration.merged.keys()]);
    const missing = selected.find((v) => !named.has(v));
    if (missing !== undefined) return `?${missing} is neither a by= column nor merged`;
    const extra = [...named].find((v) => !selected.includes(v));
    if (extra !== undefined) return `it names ?${extra}, which the query does not select`;
  }
  const orderOnly = orderOnlyVariables(tree);
  if (orderOnly.length > 0 && (declaration.by || tree.distinct))
    return `it orders by ?${orderOnly[0]}, which it does not select (that needs rows of one session each, not DISTINCT)`;
  try {
    rowOrder(tree.order ?? [], new Set([...selected, ...orderOnly]), tree.variables);
  } catch (error) {
    return `its ORDER BY cannot be applied by mcp-ld: ${(error as Error).message}`;
  }
  return undefined;
}

/**
 * The query each session's answer comes from: the (bound) query without its LIMIT and OFFSET, selecting also the
 * variables its ORDER BY reads. The same query when it has none of these.
 */
export function sessionQuery(prepared: ParsedQuery): ParsedQuery {
  const tree = prepared.tree as Query & { limit?: number; offset?: number };
  const orderOnly = orderOnlyVariables(tree);
  if (tree.queryType !== 'SELECT' || (tree.limit === undefined && tree.offset === undefined && !orderOnly.length))
    return prepared;
  const { limit: _limit, offset: _offset, ...rest } = tree;
  const variables = [...tree.variables, ...orderOnly.map((name) => DataFactory.variable(name))];
  return parseQuery(generateQuery({ ...rest, variables } as Query));
}

/** What a group's merged column holds while its rows come in; a term again at the end. */
interface Accumulator {
  add(term: Term | undefined): void;
  result(): Term | undefined;
}

const wholeNumber = /^-?[0-9]{1,15}$/;

/** An exact sum of integers and decimals (SPARQL's promotion: with a decimal among them, a decimal). */
function sumOf(): Accumulator {
  let small = 0;
  let units = 0n;
  let digits = 0;
  let decimal = false;
  let any = false;
  return {
    add(term) {
      if (term === undefined) return;
      const type = term.termType === 'Literal' ? term.datatype.value : '';
      if (type !== xsd.integer && type !== xsd.decimal)
        throw new NotMergeable(`a sum of ${term.value} (${type || term.termType})`);
      any = true;
      if (type === xsd.decimal) decimal = true;
      if (wholeNumber.test(term.value)) {
        small += Number(term.value);
        if (!Number.isSafeInteger(small)) throw new NotMergeable('a sum past 2^53');
        return;
      }
      const read = readDecimal(term.value);
      if (!read) throw new NotMergeable(`a sum of ${term.value}`);
      const scale = Math.max(digits, read.digits);
      units = units * 10n ** BigInt(scale - digits) + read.units * 10n ** BigInt(scale - read.digits);
      digits = scale;
    },
    result() {
      if (!any) return undefined;
      const total = units + BigInt(small) * 10n ** BigInt(digits);
      if (!decimal) return DataFactory.literal(total.toString(), DataFactory.namedNode(xsd.integer));
      return DataFactory.literal(decimalText(total, digits), DataFactory.namedNode(xsd.decimal));
    },
  };
}

/** The least (or, `sign` -1, the greatest) term in SPARQL's order. */
function extremeOf(sign: 1 | -1): Accumulator {
  let best: Term | undefined;
  return {
    add(term) {
      if (term !== undefined && (best === undefined || sign * compareTerms(term, best) < 0)) best = term;
    },
    result: () => best,
  };
}

/** Space-separated lists joined (`distinct`: each item once, in the order first met). */
function listOf(distinct: boolean): Accumulator {
  const items: string[] = [];
  const seen = new Set<string>();
  let any = false;
  return {
    add(term) {
      if (term === undefined) return;
      if (term.termType !== 'Literal') throw new NotMergeable('a list that is no literal');
      any = true;
      if (term.value === '') return;
      if (!distinct) items.push(term.value);
      else for (const item of term.value.split(' ')) if (!seen.has(item)) seen.add(item) && items.push(item);
    },
    result: () => (any ? DataFactory.literal(items.join(' ')) : undefined),
  };
}

const accumulators: Record<MergeOp, () => Accumulator> = {
  sum: sumOf,
  min: () => extremeOf(1),
  max: () => extremeOf(-1),
  concat: () => listOf(false),
  union: () => listOf(true),
};

/** The key of a row's group: its group columns' terms, written so that different terms never meet. */
function groupKey(row: Row, by: readonly string[]): string {
  let key = '';
  for (const column of by) {
    const term = row.get(column);
    key +=
      term === undefined
        ? '\u0000'
        : `${term.termType}\u0001${term.value}\u0001${term.termType === 'Literal' ? `${term.datatype.value}@${term.language}` : ''}\u0002`;
  }
  return key;
}

/**
 * The answer over all sessions from the answers over each (in the order given): merged as `declaration` says, then
 * ordered as `tree` is (rows the ORDER BY holds equal keep the order they came in), then cut by `cut` (the query's
 * LIMIT and OFFSET, which its sessions' queries do not have; sessionQuery). A query that DISTINCTs its rows gets no
 * two equal rows. The variables its ORDER BY reads beside `variables` are dropped from the rows after ordering.
 * Throws NotMergeable for a value the declaration cannot merge.
 */
export function mergeSessionRows(
  declaration: PerSessionDeclaration,
  tree: Query,
  variables: readonly string[],
  sessions: Iterable<readonly Row[]>,
  cut: { limit?: number; offset?: number } = {},
): Row[] {
  let rows: Row[] = [];
  const by = declaration.by;
  if (!by) {
    for (const session of sessions) for (const row of session) rows.push(row);
    if ((tree as { distinct?: boolean }).distinct) {
      const seen = new Set<string>();
      rows = rows.filter((row) => {
        const key = groupKey(row, variables);
        return !seen.has(key) && (seen.add(key), true);
      });
    }
  } else {
    const merged = [...declaration.merged];
    const groups = new Map<string, { row: Row; columns: Accumulator[] }>();
    for (const session of sessions) {
      for (const row of session) {
        const key = groupKey(row, by);
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { row, columns: merged.map(([, op]) => accumulators[op]()) }));
        merged.forEach(([column], i) => group.columns[i]!.add(row.get(column)));
      }
    }
    rows = [...groups.values()].map(({ row, columns }) => {
      const out = new Map<string, Term>();
      for (const column of by) if (row.has(column)) out.set(column, row.get(column)!);
      merged.forEach(([column], i) => {
        const value = columns[i]!.result();
        if (value !== undefined) out.set(column, value);
      });
      return out;
    });
  }
  const orderOnly = orderOnlyVariables(tree);
  rows = orderAndCut(rows, tree, new Set([...variables, ...orderOnly]), cut);
  if (orderOnly.length === 0) return rows;
  return rows.map((row) => {
    const out = new Map(row);
    for (const name of orderOnly) out.delete(name);
    return out;
  });
}

/**
 * The rows in the order of `tree`'s ORDER BY, as term-order.ts evaluates it over `variables` (the columns the rows
 * have; rows it holds equal keep their order), then cut by `cut` (a LIMIT and OFFSET applied here, not by the store).
 */
export function orderAndCut(
  rows: Row[],
  tree: Query,
  variables: ReadonlySet<string>,
  cut: { limit?: number; offset?: number },
): Row[] {
  if (tree.queryType === 'SELECT' && tree.order?.length) rows = sortRows(rows, tree.order, variables, tree.variables);
  const offset = cut.offset ?? 0;
  if (offset > 0 || cut.limit !== undefined)
    rows = rows.slice(offset, cut.limit === undefined ? undefined : offset + cut.limit);
  return rows;
}
