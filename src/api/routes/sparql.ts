// GET|POST /sparql: the SPARQL 1.1 Protocol over the store. The query comes in the `query` parameter (GET), an
// urlencoded POST, or an application/sparql-query POST; the default graph is the union of every session graph, or
// the one session graph named by `default-graph-uri`. Results by Accept. Updates need the write token, and the
// stores cannot apply them yet: they are refused with 501 after the token is checked.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import type { ServiceConfig } from '../../core/config.js';
import type { QuadStore } from '../../store/quad-store.js';
import { formatsFor, parseQuery, resultMediaTypes, runQuery, writeResult, type ResultFormat } from '../../query/index.js';
import { negotiate } from '../negotiate.js';
import { requireWriteToken } from '../write-token.js';
import type { Metrics } from '../metrics.js';

export interface StoreRouteOptions {
  store: QuadStore;
  config: ServiceConfig;
  metrics: Metrics;
}

/** The result format for `accept` among those of a query form (its first one when the client says nothing). */
export function resultFormat(accept: string | undefined, formats: readonly ResultFormat[]): ResultFormat {
  const offered = formats.filter((f) => f !== 'table');
  const index = negotiate(accept, offered.map((f) => ({ type: resultMediaTypes[f].split(';')[0]! })));
  if (index < 0) {
    throw new McpLdError({ code: 'http.not-acceptable', status: 406, title: 'Not acceptable', detail: `no result format matches Accept: ${accept}; this query gives ${offered.map((f) => resultMediaTypes[f].split(';')[0]).join(', ')}` });
  }
  return offered[index]!;
}

interface ProtocolParameters {
  query?: string | string[];
  update?: string | string[];
  'default-graph-uri'?: string | string[];
  'named-graph-uri'?: string | string[];
}

function single(name: string, value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) {
    if (value.length > 1) throw new McpLdError({ code: 'sparql.protocol', status: 400, title: 'Bad SPARQL request', detail: `give ${name} once (this service queries one default graph: the union of the sessions, or one session)` });
    return value[0];
  }
  return value;
}

export const sparqlRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store, config, metrics }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const parameters: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(body as string)) {
      const existing = parameters[key];
      parameters[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
    done(null, parameters);
  });
  app.addContentTypeParser(['application/sparql-query', 'application/sparql-update'], { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const answer = async (request: FastifyRequest, reply: FastifyReply, parameters: ProtocolParameters, body?: { query?: string; update?: string }) => {
    const update = body?.update ?? single('update', parameters.update);
    if (update !== undefined) {
      requireWriteToken(request, config.writeToken, true);
      throw new McpLdError({ code: 'sparql.update-unsupported', status: 501, title: 'Not implemented', detail: 'SPARQL Update is not applied by this store yet: add data with POST /ingest, remove a session with DELETE /sessions/{id}' });
    }
    const text = body?.query ?? single('query', parameters.query);
    if (text === undefined || text.trim() === '') {
      throw new McpLdError({ code: 'sparql.protocol', status: 400, title: 'Bad SPARQL request', detail: 'no query: pass it as the query parameter, an urlencoded query= body, or an application/sparql-query body' });
    }
    if (parameters['named-graph-uri'] !== undefined) {
      throw new McpLdError({ code: 'sparql.protocol', status: 400, title: 'Bad SPARQL request', detail: 'named-graph-uri is not supported: the named graphs are the sessions; use GRAPH in the query' });
    }
    const graph = single('default-graph-uri', parameters['default-graph-uri']);
    const parsed = parseQuery(text);
    const format = resultFormat(request.headers.accept, formatsFor(parsed.form));
    const started = performance.now();
    try {
      const result = await runQuery(store, parsed, { timeoutMs: config.queryTimeoutMs, ...(graph ? { session: graph } : {}) });
      return reply.type(resultMediaTypes[format]).send(await writeResult(result, format));
    } finally {
      metrics.observeQuery((performance.now() - started) / 1000);
    }
  };

  const queryString = {
    type: 'object',
    properties: {
      query: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      'default-graph-uri': { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      'named-graph-uri': { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
  } as const;

  app.get<{ Querystring: ProtocolParameters }>('/sparql', { schema: { summary: 'SPARQL 1.1 query (GET)', querystring: queryString } }, (request, reply) =>
    answer(request, reply, request.query),
  );
  app.post<{ Querystring: ProtocolParameters; Body: string | ProtocolParameters }>(
    '/sparql',
    { schema: { summary: 'SPARQL 1.1 query (urlencoded or application/sparql-query) or update (needs the write token)', querystring: queryString, consumes: ['application/x-www-form-urlencoded', 'application/sparql-query', 'application/sparql-update'] } },
    (request, reply) => {
      const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim();
      if (type === 'application/sparql-query') return answer(request, reply, request.query, { query: request.body as string });
      if (type === 'application/sparql-update') return answer(request, reply, request.query, { update: request.body as string });
      return answer(request, reply, { ...request.query, ...(request.body as ProtocolParameters) });
    },
  );
};
