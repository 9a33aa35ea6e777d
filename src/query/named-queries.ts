// The named queries: one `.rq` file per query in queries/, its header giving title, description and parameters.
// Lists them with their metadata, and prepares (parameters bound) or runs one by name. Query files given by a user
// are read the same way, so their `@param` headers work too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { queriesDir } from '../core/paths.js';
import { McpLdError } from '../core/problem.js';
import type { QueryForm, QueryResult, QueryText, QuadStore } from '../store/quad-store.js';
import { bindParameters, modifierParameters, parameterUseProblem, type ParameterValues, type QueryParameter } from './parameters.js';
import { parseQuery, type ParsedQuery } from './parse-query.js';
import { parseQueryHeader } from './query-header.js';
import { runQuery, runQueryText, type RunOptions } from './run-query.js';
import type { SparqlLimits } from './sparql-limits.js';

export interface NamedQuery {
  /** The file name without `.rq`. */
  name: string;
  title: string;
  description: string;
  parameters: QueryParameter[];
  form: QueryForm;
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
      ? new McpLdError({ code: 'query.named-invalid', status: 500, title: 'Invalid named query', detail: `${source}: ${detail}` })
      : new McpLdError({ code: 'query.header-invalid', status: 400, title: 'Invalid query header', detail: `${source}: ${detail}` });
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
  return { name, title: header.title ?? name, description: header.description ?? '', parameters: header.parameters, form: query.form, file, query };
}

/** The query with parameter values bound (each checked by its declared type; defaults filled in). */
export function prepareQuery(query: NamedQuery, values: ParameterValues = {}): ParsedQuery {
  return bindParameters(query.query, query.parameters, values, query.name);
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
      throw new McpLdError({ code: 'query.unknown', status: 404, title: 'No such named query', detail: `there is no named query ${JSON.stringify(name)}; the named queries: ${[...this.load().keys()].join(', ')}` });
    }
    return query;
  }

  prepare(name: string, values: ParameterValues = {}): ParsedQuery {
    return prepareQuery(this.get(name), values);
  }

  run(store: QuadStore, name: string, values: ParameterValues = {}, options: RunOptions = {}): Promise<QueryResult> {
    return runQuery(store, this.prepare(name, values), options);
  }

  /** The same, answered as text (see runQueryText). */
  runText(store: QuadStore, name: string, values: ParameterValues = {}, options: RunOptions = {}): Promise<QueryText> {
    return runQueryText(store, this.prepare(name, values), options);
  }

  private load(): Map<string, NamedQuery> {
    if (!this.loaded) {
      const files = readdirSync(this.dir)
        .filter((f) => f.endsWith('.rq'))
        .sort();
      this.loaded = new Map(files.map((f) => {
        const file = path.join(this.dir, f);
        const query = readQuery(file, readFileSync(file, 'utf8'), true);
        return [query.name, query];
      }));
    }
    return this.loaded;
  }
}
