// `mcp-ld query`: runs a SPARQL query (a .rq file or stdin, or a named query from queries/, with typed parameters)
// over the store and prints the answer as a table, SPARQL 1.1 JSON, XML, CSV, TSV, plain JSON rows or JSON Lines
// (SELECT),
// or (CONSTRUCT/DESCRIBE) Turtle, N-Triples, N-Quads, JSON-LD or RDF/XML.
import { readStoreConfig, storeVariables } from '../../core/config.js';
import { McpLdError } from '../../core/problem.js';
import { openStore } from '../../store/open-store.js';
import {
  planAnswer,
  formatsFor,
  graphFormats,
  isResultFormat,
  solutionFormats,
  NamedQueries,
  prepareQuery,
  readQuery,
  runQuery,
  sessionGraph,
  writeResult,
  type ParameterValues,
  type ResultFormat,
} from '../../query/index.js';
import { parseOptions, UsageError, write, type Command, type OptionSpecs } from '../command.js';
import { storeOptions } from '../store-options.js';
import { readInput } from '../read-input.js';

function parameters(pairs: string[]): ParameterValues {
  const values: ParameterValues = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--param takes name=value, not "${pair}"`);
    values[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return values;
}

/** A named query's `session` parameter is the session `--session` names, unless `--param session=…` gives another. */
function withSession(
  named: NamedQueries,
  name: string,
  values: ParameterValues,
  session: string | undefined,
): ParameterValues {
  if (session === undefined || values['session'] !== undefined) return values;
  return named.get(name).parameters.some((p) => p.name === 'session') ? { ...values, session } : values;
}

const options = {
  name: { type: 'string', value: 'NAME', description: 'run a named query of queries/ (--list shows them)' },
  param: {
    type: 'string',
    multiple: true,
    default: [],
    value: 'NAME=VALUE',
    description: 'a parameter of the query, checked against its declared type',
  },
  list: { type: 'boolean', default: false, description: 'list the named queries and their parameters' },
  ...storeOptions,
  session: {
    type: 'string',
    value: 'ID',
    description: "query one session's graph (which must exist); it also fills a named query's session parameter",
  },
  format: {
    type: 'string',
    value: 'FORMAT',
    description: `${solutionFormats.join(', ')} for SELECT/ASK (default table); ${graphFormats.join(', ')} for CONSTRUCT/DESCRIBE (default turtle)`,
  },
  timeout: {
    type: 'string',
    value: 'MS',
    description: 'the time limit of the query in milliseconds',
    env: 'MCPLD_QUERY_TIMEOUT',
  },
} as const satisfies OptionSpecs;

// Exported for a dynamic import: main.ts loads each command when it runs.
// ts-unused-exports:disable-next-line
export const queryCommand: Command = {
  name: 'query',
  summary: 'run a SPARQL query or a named query over the store',
  usage:
    'mcp-ld query (FILE.rq|- | --name NAME | --list) [--param k=v]... [--data DIR | --store URL] [--session ID] [--timeout MS] [--format table|json|xml|csv|tsv|rows|jsonl|turtle|ntriples|nquads|jsonld|rdfxml]',
  options,
  environment: storeVariables,
  examples: [
    'mcp-ld query --data ./graph --name tool-calls',
    'mcp-ld query --data ./graph --name slowest-requests --param limit=5 --format csv',
  ],
  async run(args, io) {
    const { values, positionals } = parseOptions(args, options, true);
    const named = new NamedQueries();
    if (values.list) {
      const lines = named.list().map((q) => {
        const params = q.parameters.map((p) => `${p.name}:${p.type}${p.required ? '' : '?'}`).join(' ');
        return `${q.name.padEnd(24)} ${q.title}${params ? `  [${params}]` : ''}`;
      });
      await write(io.stdout, lines.join('\n') + '\n');
      return 0;
    }
    if ((values.name === undefined) === (positionals.length === 0) || positionals.length > 1) {
      throw new UsageError('give one query: a .rq file, or --name NAME (--list shows the named queries)');
    }
    if (values.format !== undefined && !isResultFormat(values.format))
      throw new UsageError(`--format must be one of ${[...solutionFormats, ...graphFormats].join(', ')}`);

    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0))
      throw new UsageError('--timeout takes a positive number of milliseconds');

    const config = readStoreConfig({ data: values.data, store: values.store });
    // A query file is read like a named query: its `@param` header lines declare the parameters --param binds.
    const limits = { maxBytes: config.maxQueryBytes, maxDepth: config.maxQueryDepth };
    const query =
      values.name !== undefined
        ? named.get(values.name)
        : readQuery(
            positionals[0] === '-' ? 'stdin.rq' : positionals[0]!,
            await readInput(positionals[0], io.stdin),
            false,
            limits,
          );
    const prepared = prepareQuery(
      query,
      values.name !== undefined
        ? withSession(named, values.name, parameters(values.param), values.session)
        : parameters(values.param),
    );
    const format = (values.format ?? (formatsFor(prepared.form)[0] === 'table' ? 'table' : 'turtle')) as ResultFormat;
    if (!formatsFor(prepared.form).includes(format))
      throw new UsageError(
        `${prepared.form === 'ASK' ? 'an' : 'a'} ${prepared.form} query is written as ${formatsFor(prepared.form).join(', ')}, not ${format}`,
      );

    // Read-only: a query never writes to the data directory (no torn tail cut off, no snapshot on close).
    const store = await openStore(config, {
      role: 'read',
      onWarning: (message) => void write(io.stderr, `mcp-ld query: ${message}\n`),
    });
    try {
      if (
        values.session !== undefined &&
        !(await store.graphs()).some(({ graph }) => graph === sessionGraph(values.session!))
      ) {
        throw McpLdError.of('query.no-session', {
          detail: `no session "${values.session}" in the store (\`mcp-ld query --name sessions\` lists them)`,
        });
      }
      const plan = planAnswer(query, prepared);
      const result = await runQuery(store, plan.sent, {
        timeoutMs: timeoutMs ?? config.queryTimeoutMs,
        maxRows: config.maxResultRows,
        maxBytes: config.maxResultBytes,
        ...(values.session ? { session: sessionGraph(values.session) } : {}),
      });
      await write(io.stdout, await writeResult(plan.complete(result), format));
    } finally {
      await store.close();
    }
    return 0;
  },
};
