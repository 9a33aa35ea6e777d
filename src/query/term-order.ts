// SPARQL 1.1's order of RDF terms (§15.1, ORDER BY; MIN and MAX use it too) as the embedded store applies it, for
// answers that mcp-ld puts together itself (per-session.ts): no value first, then blank nodes, IRIs, literals; numbers
// by value, dates and times by instant, booleans false first, other literals by their text (code point order). Also
// the ORDER BY conditions of a query, compiled to a comparison of rows (variables, numbers, arithmetic, comparisons,
// IF and numeric casts: what the named queries order by). Pure.
import type { Term } from '@rdfjs/types';
import type { Expression, Ordering, SelectQuery } from 'sparqljs';
import { ns, xsdDecimalTypes, xsdIntegerTypes } from '../rdf/vocabulary.js';

const numericTypes = new Set([...xsdIntegerTypes, ...xsdDecimalTypes].map((local) => `${ns.xsd}${local}`));

/** A value an ORDER BY expression computes: an RDF term, or a number or truth value of mcp-ld's own arithmetic. */
type OrderValue = Term | { termType: 'Number'; value: number } | { termType: 'Boolean'; value: boolean } | undefined;

const rank: Record<string, number> = { BlankNode: 1, NamedNode: 2, Literal: 3, Number: 3, Boolean: 3 };

/** Code point order (JavaScript's < compares UTF-16 code units, which puts U+E000…U+FFFF after astral characters). */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogates = (x >= 0xd800 && x <= 0xdfff) !== (y >= 0xd800 && y <= 0xdfff);
    if (!surrogates) return x < y ? -1 : 1;
    return a.codePointAt(i)! < b.codePointAt(i)! ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

function numberOf(value: OrderValue): number | undefined {
  if (value === undefined) return undefined;
  if (value.termType === 'Number') return value.value;
  if (value.termType === 'Literal' && numericTypes.has(value.datatype.value)) {
    const number = Number(value.value);
    return Number.isNaN(number) && value.value !== 'NaN' ? undefined : number;
  }
  return undefined;
}

function booleanOf(value: OrderValue): boolean | undefined {
  if (value === undefined) return undefined;
  if (value.termType === 'Boolean') return value.value;
  if (value.termType === 'Literal' && value.datatype.value === `${ns.xsd}boolean`)
    return value.value === 'true' || value.value === '1';
  return undefined;
}

function instantOf(term: Term): number | undefined {
  if (term.termType !== 'Literal') return undefined;
  const type = term.datatype.value;
  if (type !== `${ns.xsd}dateTime` && type !== `${ns.xsd}date`) return undefined;
  const instant = Date.parse(term.value);
  return Number.isNaN(instant) ? undefined : instant;
}

/** Negative, zero or positive as `a` comes before, with or after `b` in SPARQL's ORDER BY. */
export function compareTerms(a: OrderValue, b: OrderValue): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  const byKind = rank[a.termType]! - rank[b.termType]!;
  if (byKind !== 0) return byKind;
  const [x, y] = [numberOf(a), numberOf(b)];
  if (x !== undefined && y !== undefined) return x === y ? 0 : x < y ? -1 : 1;
  const [p, q] = [booleanOf(a), booleanOf(b)];
  if (p !== undefined && q !== undefined) return p === q ? 0 : p ? 1 : -1;
  if (a.termType === 'Number' || a.termType === 'Boolean' || b.termType === 'Number' || b.termType === 'Boolean')
    return String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0;
  const [s, t] = [instantOf(a as Term), instantOf(b as Term)];
  if (s !== undefined && t !== undefined && s !== t) return s < t ? -1 : 1;
  const byText = compareText(a.value, b.value);
  if (byText !== 0 || a.termType !== 'Literal' || b.termType !== 'Literal') return byText;
  return compareText(a.datatype.value + a.language, b.datatype.value + b.language);
}

type Row = ReadonlyMap<string, Term>;
type Evaluate = (row: Row) => OrderValue;

const casts = new Set([`${ns.xsd}decimal`, `${ns.xsd}integer`, `${ns.xsd}double`, `${ns.xsd}float`]);

/**
 * An expression of an ORDER BY condition as a function of a row; throws an Error naming what it cannot evaluate (an
 * aggregate the query does not select as a column of its own, a function other than a numeric cast, a variable not
 * among `variables`). `aggregates` names the column of each aggregate the query selects (by its expression's JSON).
 */
function compile(
  expression: Expression,
  variables: ReadonlySet<string>,
  aggregates: ReadonlyMap<string, string>,
): Evaluate {
  const node = expression as unknown as Record<string, unknown>;
  if (node['type'] === 'aggregate') {
    const column = aggregates.get(JSON.stringify(expression));
    if (column === undefined || !variables.has(column))
      throw new Error('it orders by an aggregate that the query does not select as a column');
    return (row) => row.get(column);
  }
  if (node['termType'] === 'Variable') {
    const name = node['value'] as string;
    if (!variables.has(name)) throw new Error(`it orders by ?${name}, which the answer does not have`);
    return (row) => row.get(name);
  }
  if (node['termType'] === 'Literal') {
    const term = expression as unknown as Term;
    return () => term;
  }
  const args = ((node['args'] as Expression[] | undefined) ?? []).map((arg) => compile(arg, variables, aggregates));
  if (node['type'] === 'functionCall') {
    const fn = (node['function'] as Term).value;
    if (!casts.has(fn) || args.length !== 1) throw new Error(`it orders by a call of <${fn}>`);
    return (row) => {
      const number = numberOf(args[0]!(row));
      return number === undefined ? undefined : { termType: 'Number', value: number };
    };
  }
  if (node['type'] !== 'operation') throw new Error(`it orders by a ${String(node['type'])} expression`);
  const operator = node['operator'] as string;
  const [left, right, other] = args as [Evaluate, Evaluate?, Evaluate?];
  const arithmetic: Record<string, (x: number, y: number) => number | undefined> = {
    '+': (x, y) => x + y,
    '-': (x, y) => x - y,
    '*': (x, y) => x * y,
    // A division by zero is an error in SPARQL (for integers and decimals): no value.
    '/': (x, y) => (y === 0 ? undefined : x / y),
  };
  const comparison: Record<string, (order: number) => boolean> = {
    '>': (o) => o > 0,
    '<': (o) => o < 0,
    '>=': (o) => o >= 0,
    '<=': (o) => o <= 0,
    '=': (o) => o === 0,
    '!=': (o) => o !== 0,
  };
  if (arithmetic[operator] && right) {
    const apply = arithmetic[operator];
    return (row) => {
      const [x, y] = [numberOf(left(row)), numberOf(right(row))];
      const value = x === undefined || y === undefined ? undefined : apply(x, y);
      return value === undefined ? undefined : { termType: 'Number', value };
    };
  }
  if (comparison[operator] && right) {
    const test = comparison[operator];
    return (row) => {
      const [x, y] = [left(row), right(row)];
      return x === undefined || y === undefined ? undefined : { termType: 'Boolean', value: test(compareTerms(x, y)) };
    };
  }
  if (operator === 'if' && right && other) {
    return (row) => {
      const condition = left(row);
      if (condition === undefined) return undefined;
      return (booleanOf(condition) ?? (numberOf(condition) ?? 0) !== 0) ? right(row) : other(row);
    };
  }
  throw new Error(`it orders by the operator ${operator}`);
}

/** The values a row is ordered by, one per ORDER BY condition, and how each condition compares them. */
function orderKeys(
  order: readonly Ordering[],
  variables: ReadonlySet<string>,
  selected: SelectQuery['variables'],
): { values: (row: Row) => OrderValue[]; compare: (a: OrderValue[], b: OrderValue[]) => number } {
  const aggregates = new Map<string, string>();
  for (const item of selected)
    if (!('termType' in item) && item.expression) aggregates.set(JSON.stringify(item.expression), item.variable.value);
  const keys = order.map(({ expression }) => compile(expression, variables, aggregates));
  const descending = order.map((ordering) => ordering.descending);
  return {
    values: (row) => keys.map((key) => key(row)),
    compare: (a, b) => {
      for (let i = 0; i < a.length; i++) {
        const order = compareTerms(a[i], b[i]);
        if (order !== 0) return descending[i] ? -order : order;
      }
      return 0;
    },
  };
}

/**
 * A comparison of two rows by `order` (a query's ORDER BY; an aggregate in it is read from the column that `selected`,
 * the query's SELECT, gives it); throws an Error naming what it cannot evaluate.
 */
export function rowOrder(
  order: readonly Ordering[],
  variables: ReadonlySet<string>,
  selected: SelectQuery['variables'] = [],
): (a: Row, b: Row) => number {
  const { values, compare } = orderKeys(order, variables, selected);
  return (a, b) => compare(values(a), values(b));
}

/** The rows sorted by `order` as rowOrder compares them (each row's values computed once); rows held equal keep
 * their order. */
export function sortRows<R extends Row>(
  rows: readonly R[],
  order: readonly Ordering[],
  variables: ReadonlySet<string>,
  selected: SelectQuery['variables'] = [],
): R[] {
  const { values, compare } = orderKeys(order, variables, selected);
  return rows
    .map((row) => ({ row, key: values(row) }))
    .sort((a, b) => compare(a.key, b.key))
    .map(({ row }) => row);
}
