// Bounds how many solutions a query can make a store produce, before the store runs it: a SELECT gets LIMIT maxRows + 1
// (the store refuses an answer of more than maxRows rows; the one extra tells "too many" from "just enough"), a
// CONSTRUCT the same LIMIT and one marker triple per solution in its template, which the store counts and drops (see
// store/result-limits.ts). So a cartesian product ends in a clear refusal instead of filling the store's memory. ASK
// answers once; DESCRIBE is left as it is (the store still refuses more than maxRows triples). An ordered query gets no
// LIMIT past the rows its store sorts for one (QuadStore.sortedRowLimit: Virtuoso refuses the query), and is cut as
// the answer is read. Pure: no store, no I/O.
import { DataFactory } from 'n3';
import type { ConstructQuery, Query, Triple } from 'sparqljs';
import type { QueryForm } from '../store/quad-store.js';
import { solutionMarker } from '../store/result-limits.js';
import { generateQuery, type ParsedQuery } from './parse-query.js';
import { tooComplex } from './sparql-limits.js';

/** A checked query as a store runs it, and how many rows (solutions, triples) the store may answer. */
export interface BoundedQuery {
  form: QueryForm;
  text: string;
  maxRows?: number;
}

export function boundRows(parsed: ParsedQuery, maxRows: number | undefined, sortedRowLimit?: number): BoundedQuery {
  try {
    return bound(parsed, maxRows, sortedRowLimit);
  } catch (error) {
    // Writing the text back walks the syntax tree: one too deep for that is too complex (a chain of operators).
    if (error instanceof RangeError) throw tooComplex();
    throw error;
  }
}

function bound(parsed: ParsedQuery, maxRows: number | undefined, sortedRowLimit: number | undefined): BoundedQuery {
  if (maxRows === undefined) return { form: parsed.form, text: parsed.text };
  const bounded: BoundedQuery = { form: parsed.form, text: parsed.text, maxRows };
  const tree = parsed.tree as Query & { limit?: number };
  const ordered = (tree as { order?: unknown[] }).order !== undefined;
  if (ordered && sortedRowLimit !== undefined && maxRows + 1 > sortedRowLimit) return bounded;
  if (parsed.form === 'SELECT' && !(tree.limit !== undefined && tree.limit <= maxRows)) {
    bounded.text = generateQuery({ ...tree, limit: maxRows + 1 } as Query);
  } else if (parsed.form === 'CONSTRUCT' && !(tree.limit !== undefined && tree.limit <= maxRows)) {
    // Solutions past maxRows + 1 are never produced; whether there were more than maxRows is in the marker count.
    const construct = tree as ConstructQuery;
    const marker = {
      subject: DataFactory.blankNode('solution'),
      predicate: DataFactory.namedNode(solutionMarker),
      object: DataFactory.literal('1'),
    } as Triple;
    bounded.text = generateQuery({
      ...construct,
      template: [...(construct.template ?? []), marker],
      limit: maxRows + 1,
    } as Query);
  }
  return bounded;
}
