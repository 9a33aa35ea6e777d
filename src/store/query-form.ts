// Tells the form of a SPARQL query (SELECT, ASK, CONSTRUCT, DESCRIBE) from its first keyword after the prologue, and
// the graphs its own FROM / FROM NAMED clauses name, so a store can ask for the right result format and dataset;
// refuses updates and anything that is not a query. A scan, not a parse: it reads no further than the WHERE clause.
import { resolve } from 'relative-to-absolute-iri';
import type { QueryDataset, QueryForm } from './quad-store.js';
import { invalidQuery } from './store-errors.js';
import { hasIriScheme } from '../core/iri.js';

const forms = new Set<string>(['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE']);
const updates = new Set(['INSERT', 'DELETE', 'LOAD', 'CLEAR', 'DROP', 'CREATE', 'ADD', 'MOVE', 'COPY', 'WITH']);

interface QueryShape {
  form: QueryForm;
  /** The graphs of the query's FROM (default graphs) and FROM NAMED clauses, as absolute IRIs; absent without any. */
  dataset?: QueryDataset;
  /** Where those clauses are in the text: from the first FROM to the end of the last one's IRI. */
  datasetClauses?: { start: number; end: number };
}

// The IRIREF token; the longest match wins, as in sparqljs (`?a<?b>` is an IRI there too).
const iriRef = /<([^<>"{}|^`\\\u0000-\u0020]*)>/y;
// A token with no brackets, quotes, IRI or comment in it: a variable, a prefixed name, a keyword.
const plainToken = /[^\s(){}[\]<>"'#*]+/y;
// A prefixed name: PNAME_NS then the local part (escapes `\.` etc. stand for their character).
const prefixedName = /([A-Za-z\u00C0-\uFFFF][\w\u00B7\u00C0-\uFFFF.-]*)?:((?:[\w\u00B7\u00C0-\uFFFF:.%-]|\\.)*)/y;
const nameChar = /[\w\u00B7\u00C0-\uFFFF:.-]/;

class Scanner {
  private i = 0;
  private base: string | undefined;
  private readonly prefixes = new Map<string, string>();

  constructor(private readonly text: string) {}

  shape(): QueryShape {
    for (;;) {
      this.skipSpace();
      const keyword = this.word();
      if (keyword === 'BASE') {
        this.base = this.resolved(this.iriRef());
      } else if (keyword === 'PREFIX') {
        this.skipSpace();
        const colon = this.text.indexOf(':', this.i);
        if (colon < 0) throw invalidQuery('the prologue of the query is malformed: a prefix name was expected');
        const name = this.text.slice(this.i, colon).trim();
        this.i = colon + 1;
        this.prefixes.set(name, this.resolved(this.iriRef()));
      } else if (forms.has(keyword)) {
        const form = keyword as QueryForm;
        return { form, ...this.datasetClauses(form) };
      } else if (updates.has(keyword)) {
        throw invalidQuery(
          `${keyword} is a SPARQL update: only queries (SELECT, ASK, CONSTRUCT, DESCRIBE) are accepted here`,
        );
      } else {
        throw invalidQuery(
          keyword
            ? `a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE, not ${keyword}`
            : 'the text is not a SPARQL query',
        );
      }
    }
  }

  /** The FROM and FROM NAMED clauses after the projection (SELECT, DESCRIBE) or the template (CONSTRUCT). */
  private datasetClauses(form: QueryForm): Omit<QueryShape, 'form'> {
    if (form === 'CONSTRUCT') {
      this.skipSpace();
      if (this.text[this.i] === '{') this.skipGroup();
    } else if (form === 'SELECT' || form === 'DESCRIBE') {
      this.skipProjection();
    }
    const dataset: QueryDataset = { defaultGraphs: [], namedGraphs: [] };
    let start: number | undefined;
    for (;;) {
      this.skipSpace();
      if (!this.keywordAhead('FROM')) break;
      start ??= this.i;
      this.i += 4;
      this.skipSpace();
      const named = this.keywordAhead('NAMED');
      if (named) {
        this.i += 5;
        this.skipSpace();
      }
      (named ? dataset.namedGraphs : dataset.defaultGraphs).push(this.graphIri());
    }
    return start === undefined ? {} : { dataset, datasetClauses: { start, end: this.i } };
  }

  /** Up to the first FROM, WHERE or `{` outside brackets: variables, `*`, DISTINCT, `(expression AS ?v)`, IRIs. */
  private skipProjection(): void {
    for (;;) {
      this.skipSpace();
      const c = this.text[this.i];
      if (c === undefined || c === '{' || this.keywordAhead('FROM') || this.keywordAhead('WHERE')) return;
      if (c === '(' || c === '[') this.skipGroup();
      else if (c === '"' || c === "'") this.skipString();
      else if (c === '<') this.skipIriOrChar();
      else if (!this.matchAt(plainToken)) this.i += 1;
    }
  }

  /** From an opening bracket to the one that closes it, past strings, IRIs and comments. */
  private skipGroup(): void {
    let depth = 0;
    do {
      const c = this.text[this.i]!;
      if (c === '"' || c === "'") this.skipString();
      else if (c === '#') this.skipComment();
      else if (c === '<') this.skipIriOrChar();
      else {
        if (c === '(' || c === '{' || c === '[') depth += 1;
        else if (c === ')' || c === '}' || c === ']') depth -= 1;
        this.i += 1;
      }
    } while (this.i < this.text.length && depth > 0);
  }

  private skipString(): void {
    const quote = this.text[this.i]!;
    const long = this.text.startsWith(quote.repeat(3), this.i);
    this.i += long ? 3 : 1;
    while (this.i < this.text.length) {
      const c = this.text[this.i]!;
      if (c === '\\') this.i += 2;
      else if (long ? this.text.startsWith(quote.repeat(3), this.i) : c === quote) {
        this.i += long ? 3 : 1;
        return;
      } else this.i += 1;
    }
  }

  private skipComment(): void {
    while (this.i < this.text.length && this.text[this.i] !== '\n') this.i += 1;
  }

  private skipIriOrChar(): void {
    if (!this.matchAt(iriRef)) this.i += 1;
  }

  private skipSpace(): void {
    for (;;) {
      while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i += 1;
      if (this.text[this.i] !== '#') return;
      this.skipComment();
    }
  }

  private word(): string {
    const start = this.i;
    while (this.i < this.text.length && /[A-Za-z]/.test(this.text[this.i]!)) this.i += 1;
    return this.text.slice(start, this.i).toUpperCase();
  }

  /** Whether `keyword` (any case) starts here as a whole token (not `from:x`, not `fromage`). */
  private keywordAhead(keyword: string): boolean {
    const end = this.i + keyword.length;
    return this.text.slice(this.i, end).toUpperCase() === keyword && !nameChar.test(this.text[end] ?? ' ');
  }

  private matchAt(pattern: RegExp): RegExpExecArray | undefined {
    pattern.lastIndex = this.i;
    const match = pattern.exec(this.text);
    if (!match) return undefined;
    this.i = pattern.lastIndex;
    return match;
  }

  private iriRef(): string {
    this.skipSpace();
    const match = this.matchAt(iriRef);
    if (!match) throw invalidQuery('the prologue of the query is malformed: an IRI in <...> was expected');
    return match[1]!;
  }

  /** The IRI of a FROM clause: `<…>` resolved against the BASE, or a prefixed name expanded. */
  private graphIri(): string {
    if (this.text[this.i] === '<') return this.resolved(this.iriRef());
    const match = this.matchAt(prefixedName);
    if (!match) throw invalidQuery('FROM and FROM NAMED take an IRI: <…> or a prefixed name');
    // A local name does not end in a dot: one there ends the clause.
    const dots = /(?<!\\)\.*$/.exec(match[2]!)?.[0].length ?? 0;
    this.i -= dots;
    const local = match[2]!.slice(0, match[2]!.length - dots);
    const namespace = this.prefixes.get(match[1] ?? '');
    if (namespace === undefined)
      throw invalidQuery(`the prefix ${match[1] ?? ''}: of FROM ${match[0]} is not declared`);
    return namespace + local.replace(/\\(.)/g, '$1');
  }

  /**
   * An IRI resolved against the BASE (RFC 3986); without a BASE a relative IRI stays as it is (and is refused later).
   */
  private resolved(iri: string): string {
    if (this.base === undefined || hasIriScheme(iri)) return iri;
    return resolve(iri, this.base);
  }
}

/** The form of a query and the dataset its FROM / FROM NAMED clauses name. */
export function queryShape(sparql: string): QueryShape {
  return new Scanner(sparql).shape();
}

/** The query without its FROM / FROM NAMED clauses (blanked, so lines and columns stay), for a dataset given apart. */
export function withoutDatasetClauses(sparql: string, shape: QueryShape): string {
  if (!shape.datasetClauses) return sparql;
  const { start, end } = shape.datasetClauses;
  return sparql.slice(0, start) + sparql.slice(start, end).replace(/[^\n]/g, ' ') + sparql.slice(end);
}

export function queryForm(sparql: string): QueryForm {
  return queryShape(sparql).form;
}
