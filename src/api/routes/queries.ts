// GET /queries lists the named queries (name, title, description, parameters); GET|POST /queries/:name runs one,
// with parameters from the query string (GET) or a JSON object (POST), each checked against its declared type and
// bound as an RDF term. Results by Accept, as for /sparql, but `application/json` is plain JSON rows here. The listing
// gives each query's text too (its file: header and SPARQL), to read or to run as it is on /sparql.
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { NamedQueries, type ParameterValues } from '../../query/index.js';
import { pickResult, resultOffers } from '../result-offers.js';
import { resultLimits, type StoreRouteOptions } from './sparql.js';

const nameParams = { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 100 } }, required: ['name'] } as const;

export const queryRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store, config, metrics, offload }) => {
  const named = new NamedQueries();
  const texts = new Map(named.list().map((q) => [q.name, readFileSync(q.file, 'utf8')]));

  app.get('/queries', { schema: { summary: 'The named queries and their parameters' } }, async () => ({
    queries: named.list().map((q) => ({
      name: q.name,
      title: q.title,
      description: q.description,
      form: q.form,
      parameters: q.parameters.map((p) => ({ name: p.name, type: p.type, required: p.required, ...(p.default !== undefined ? { default: p.default } : {}), description: p.description })),
      href: `/queries/${q.name}`,
      sparql: texts.get(q.name),
    })),
  }));

  const run = async (name: string, values: ParameterValues, accept: string | undefined) => {
    const query = named.get(name);
    const { format, contentType } = pickResult(accept, resultOffers(query.form, 'named-query'));
    const started = performance.now();
    try {
      const answer = await named.runText(store, name, values, resultLimits(config));
      return { type: contentType, body: await offload.result(answer, format) };
    } finally {
      metrics.observeQuery((performance.now() - started) / 1000);
    }
  };

  app.get<{ Params: { name: string }; Querystring: Record<string, string> }>(
    '/queries/:name',
    { schema: { summary: 'Run a named query (parameters in the query string)', params: nameParams, querystring: { type: 'object', additionalProperties: { type: 'string', maxLength: 2000 } } } },
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
        params: nameParams,
        body: { type: 'object', additionalProperties: { anyOf: [{ type: 'string', maxLength: 2000 }, { type: 'number' }, { type: 'boolean' }] } },
      },
    },
    async (request, reply) => {
      if (request.body === undefined || request.body === null) throw new McpLdError({ code: 'http.body', status: 400, title: 'Bad request', detail: 'send the parameters as a JSON object (or use GET with a query string)' });
      const values: ParameterValues = Object.fromEntries(Object.entries(request.body).map(([k, v]) => [k, String(v)]));
      const { type, body } = await run(request.params.name, values, request.headers.accept);
      return reply.type(type).send(body);
    },
  );
};
