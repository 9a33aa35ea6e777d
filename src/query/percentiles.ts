// Percentiles of a query's answer, which SPARQL has no aggregate for: a query file's `@percentiles LIST NAME=P...`
// header
// line names a projected variable that holds each row's numbers, space-separated (a GROUP_CONCAT), and the columns that
// replace it, each the nearest-rank P-th percentile of those numbers. Pure: declaration in, rows in, rows out.
import { DataFactory } from 'n3';
import type { Term } from '@rdfjs/types';
import { McpLdError } from '../core/problem.js';
import { xsd } from '../rdf/index.js';
import type { QueryResult } from '../store/quad-store.js';
import { replaceColumns } from './computed-columns.js';

interface PercentileColumn {
  /** The variable of the column, e.g. p95Ms. */
  name: string;
  /** The percentile, in (0, 100], in thousandths of a percent (95 → 95000), so that ranks are computed exactly. */
  milliPercent: number;
}

export interface PercentileDeclaration {
  /** The projected variable whose value is the row's numbers, separated by spaces. */
  list: string;
  columns: PercentileColumn[];
}

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads `LIST NAME=P NAME=P…` (the text after `@percentiles`); a message for what is wrong, else the declaration. */
export function parsePercentiles(text: string): PercentileDeclaration | string {
  const [list, ...pairs] = text.trim().split(/\s+/);
  const form = 'expected "@percentiles LIST NAME=PERCENT…", e.g. "@percentiles latencies p50Ms=50 p95Ms=95"';
  if (!list || !variableName.test(list.replace(/^\?/, '')) || pairs.length === 0)
    return `${form}, not ${JSON.stringify(text)}`;
  const columns: PercentileColumn[] = [];
  for (const pair of pairs) {
    const match = /^\??([A-Za-z_][A-Za-z0-9_]*)=([0-9]{1,3}(?:\.[0-9]{1,3})?)$/.exec(pair);
    if (!match) return `${form}; ${JSON.stringify(pair)} is not NAME=PERCENT (a percent with at most three decimals)`;
    const milliPercent = Math.round(Number(match[2]) * 1000);
    if (milliPercent <= 0 || milliPercent > 100_000)
      return `the percentile of ${match[1]} must be above 0 and at most 100, not ${match[2]}`;
    if (columns.some((c) => c.name === match[1]) || match[1] === list.replace(/^\?/, ''))
      return `the column ${match[1]} is named twice`;
    columns.push({ name: match[1]!, milliPercent });
  }
  return { list: list.replace(/^\?/, ''), columns };
}

/**
 * The nearest-rank percentile: the smallest of the values such that at least ceil(p × n) of them are at most it.
 * `values` sorted ascending; undefined for none.
 */
export function nearestRank<T>(sorted: readonly T[], milliPercent: number): T | undefined {
  if (sorted.length === 0) return undefined;
  // p × n = milliPercent × n / 100000: the product is an exact integer, so the rank is exact too.
  const rank = Math.ceil((milliPercent * sorted.length) / 100_000);
  return sorted[Math.max(1, rank) - 1];
}

function percentilesInvalid(source: string, detail: string): McpLdError {
  return McpLdError.of('query.percentiles-invalid', { detail: `${source}: ${detail}` });
}

/**
 * The answer with each declared list column replaced by its percentile columns (xsd:decimal, or xsd:double for an
 * exponent).
 */
export function applyPercentiles(
  result: QueryResult,
  declarations: readonly PercentileDeclaration[],
  source = 'the query',
): QueryResult {
  return replaceColumns(
    result,
    declarations,
    ({ list, columns }, variables) => {
      if (!variables.includes(list))
        throw percentilesInvalid(source, `@percentiles names ?${list}, which the query does not select`);
      return { replaced: list, added: columns.map((c) => c.name) };
    },
    (row, out, { list, columns }) => {
      const term = row.get(list);
      const text = term?.termType === 'Literal' ? term.value.trim() : term === undefined ? '' : undefined;
      if (text === undefined)
        throw percentilesInvalid(source, `?${list} holds ${term!.termType} ${term!.value}, not a list of numbers`);
      const values = text === '' ? [] : text.split(/\s+/).map((lexical) => ({ lexical, number: Number(lexical) }));
      const bad = values.find(
        (v) => !Number.isFinite(v.number) || !/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(v.lexical),
      );
      if (bad) throw percentilesInvalid(source, `?${list} holds ${JSON.stringify(bad.lexical)}, which is not a number`);
      values.sort((a, b) => a.number - b.number);
      for (const column of columns) {
        const value = nearestRank(values, column.milliPercent);
        if (value) out.set(column.name, percentileTerm(value.lexical));
      }
    },
  );
}

function percentileTerm(lexical: string): Term {
  return DataFactory.literal(lexical, DataFactory.namedNode(/[eE]/.test(lexical) ? xsd.double : xsd.decimal));
}
