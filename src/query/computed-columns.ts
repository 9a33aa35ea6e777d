// Columns of a SELECT answer computed by mcp-ld rather than the store (@percentiles, @quotient): a selected column
// gives way, where it stood, to the columns computed in its place, and each row gets their values. Pure.
import type { Term } from '@rdfjs/types';
import type { QueryResult } from '../store/quad-store.js';

/** What one declaration does to the answer's columns. */
interface ColumnReplacement {
  /** The selected column it takes the place of (dropped from the answer). */
  replaced: string;
  /** The columns put in its place, in order. */
  added: readonly string[];
}

/**
 * The answer with each declaration's column replaced by the columns it adds (an answer other than a SELECT as it
 * is). `replacement` is asked once per declaration, in order, with the columns as they stand before it (it throws
 * when they lack what it needs); `fill` sets the added columns of one row into `out` (the row's copy; read the
 * store's values from `row`).
 */
export function replaceColumns<D>(
  result: QueryResult,
  declarations: readonly D[],
  replacement: (declaration: D, variables: readonly string[]) => ColumnReplacement,
  fill: (row: ReadonlyMap<string, Term>, out: Map<string, Term>, declaration: D) => void,
): QueryResult {
  if (declarations.length === 0 || result.form !== 'SELECT') return result;
  let variables = result.variables;
  const replaced: string[] = [];
  for (const declaration of declarations) {
    const { replaced: column, added } = replacement(declaration, variables);
    const at = variables.indexOf(column);
    variables = [...variables.slice(0, at), ...added, ...variables.slice(at + 1)];
    replaced.push(column);
  }
  const rows = result.rows.map((row) => {
    const out = new Map(row);
    declarations.forEach((declaration, i) => {
      out.delete(replaced[i]!);
      fill(row, out, declaration);
    });
    return out;
  });
  return { form: 'SELECT', variables, rows };
}
