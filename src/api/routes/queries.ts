// GET /queries lists the named queries (name, title, description, parameters); GET|POST /queries/:name runs one,
// with parameters from the query string (GET) or a JSON object (POST), each checked against its declared type and
// bound as an RDF term. Results by Accept, as for /sparql, but `application/json` is plain JSON rows here. The listing
// gives each query's text too (its file: header and SPARQL), to read or to run as it is on /sparql. Queries that
// declare @per-session are answered from their sessions' answers where the store can tell its writes
// (session-partials.ts).
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { NamedQueries, SessionPartials, type ParameterValues } from '../../query/index.js';
import { pickResult, resultOffers } from '../result-offers.js';
import { resultLimits } from './sparql.js';
import type { StoreRouteOptions } from './store-route-options.js';
import { answerIn, problems } from '../openapi.js';

const parameterValue = { type: 'string', maxLength: 2000 } as const;

/** The list of GET /queries. */
const listSchema = {
  type: 'object',
  required: ['queries'],
  properties: {
    queries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'title', 'description', 'form', 'parameters', 'href'],
        properties: {
          name: { type: 'string' },
          title: { type: 'string' },
          description: { type: 'string' },
          form: { type: 'string', enum: ['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE'] },
          parameters: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'type', 'required', 'description'],
              properties: {
                name: { type: 'string' },
                type: { type: 'string' },
                required: { type: 'boolean' },
                default: { type: 'string' },
                description: { type: 'string' },
              },
              additionalProperties: false,
            },
          },
          href: { type: 'string' },
          sparql: { type: 'string', description: 'the query file, its header included' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

/**
 * Every named query's parameters as the query string of GET /queries/{name}: each documented, with the queries that
 * take it.
 */
function parametersSchema(named: NamedQueries) {
  const byName = new Map<string, { types: Set<string>; descriptions: Set<string>; queries: string[] }>();
  for (const query of named.list()) {
    for (const parameter of query.parameters) {
      const entry = byName.get(parameter.name) ?? { types: new Set(), descriptions: new Set(), queries: [] };
      entry.types.add(parameter.type);
      entry.descriptions.add(parameter.description);
      entry.queries.push(query.name);
      byName.set(parameter.name, entry);
    }
  }
  const properties = Object.fromEntries(
    [...byName]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, entry]) => [
        name,
        {
          ...parameterValue,
          description: `${[...entry.types].join(' or ')}: ${[...entry.descriptions][0]}; taken by ${entry.queries.join(', ')}`,
        },
      ]),
  );
  return { type: 'object', properties, additionalProperties: parameterValue };
}

const allResultTypes = [
  ...new Set(
    [...resultOffers('SELECT', 'named-query'), ...resultOffers('CONSTRUCT', 'named-query')].map(
      (offer) => offer.contentType,
    ),
  ),
];

export const queryRoutes: FastifyPluginAsync<StoreRouteOptions & { partials?: SessionPartials }> = async (
  app,
  { store, config, metrics, offload, ...given },
) => {
  const named = new NamedQueries();
  // The named queries that declare @per-session are answered from each session's answer, kept while the store tells
  // which sessions its writes touch (the embedded store that holds its engine); or by the caller's.
  const own = !given.partials && store.changes ? new SessionPartials(store) : undefined;
  const partials = given.partials ?? own;
  if (own) app.addHook('onClose', async () => own.close());
  const nameParams = {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        pattern: '^[a-z0-9][a-z0-9-]*$',
        maxLength: 100,
        description: `the named query: ${named
          .list()
          .map((q) => q.name)
          .join(', ')}`,
        examples: ['tool-calls'],
      },
    },
    required: ['name'],
  } as const;
  const tags = ['queries'];
  const results = {
    200: answerIn(
      'the results in the format Accept asks for: plain JSON rows for application/json, JSON Lines, SPARQL results (JSON, XML, CSV, TSV); a graph for CONSTRUCT queries',
      allResultTypes,
    ),
    ...problems(404, 406, 422, 429, 502, 503, 504),
  };
  const texts = new Map(named.list().map((q) => [q.name, readFileSync(q.file, 'utf8')]));

  app.get(
    '/queries',
    {
      schema: { summary: 'The named queries and their parameters', tags, response: { 200: listSchema, ...problems() } },
    },
    async () => ({
      queries: named.list().map((q) => ({
        name: q.name,
        title: q.title,
        description: q.description,
        form: q.form,
        parameters: q.parameters.map((p) => ({
          name: p.name,
          type: p.type,
          required: p.required,
          ...(p.default !== undefined ? { default: p.default } : {}),
          description: p.description,
        })),
        href: `/queries/${q.name}`,
        sparql: texts.get(q.name),
      })),
    }),
  );

  const run = async (name: string, values: ParameterValues, accept: string | undefined) => {
    const query = named.get(name);
    const { format, contentType } = pickResult(accept, resultOffers(query.form, 'named-query'));
    const started = performance.now();
    try {
      const answer = await named.runText(store, name, values, resultLimits(config), partials);
      return { type: contentType, body: await offload.result(answer, format) };
    } finally {
      metrics.observeQuery((performance.now() - started) / 1000);
    }
  };

  app.get<{ Params: { name: string }; Querystring: Record<string, string> }>(
    '/queries/:name',
    {
      schema: {
        summary: 'Run a named query (parameters in the query string)',
        description:
          'Each parameter is checked against the type its query declares (GET /queries lists them) and bound as an RDF term; since and until take a date or a date-time.',
        tags,
        params: nameParams,
        querystring: parametersSchema(named),
        response: results,
      },
    },
    async (request, reply) => {
      const { type, body } = await run(request.params.name, request.query, request.headers.accept);
      return reply.type(type).send(body);
    },
  );

  app.post<{ Params: { name: string }; Body: Record<string, string | number | boolean> }>(
    '/queries/:name',
    {
      schema: {
        summary: 'Run a named query (parameters as a JSON object)',
        tags,
        params: nameParams,
        body: {
          type: 'object',
          additionalProperties: {
            anyOf: [{ type: 'string', maxLength: 2000 }, { type: 'number' }, { type: 'boolean' }],
          },
          examples: [{ tool: 'echo' }],
        },
        response: { ...results, ...problems(404, 406, 415, 422, 429, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      if (request.body === undefined || request.body === null)
        throw McpLdError.of('http.body', {
          detail: 'send the parameters as a JSON object (or use GET with a query string)',
        });
      const values: ParameterValues = Object.fromEntries(Object.entries(request.body).map(([k, v]) => [k, String(v)]));
      const { type, body } = await run(request.params.name, values, request.headers.accept);
      return reply.type(type).send(body);
    },
  );
};
