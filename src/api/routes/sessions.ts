// GET /sessions lists the session graphs; GET /sessions/:id gives one session's quads (by Accept) or its messages
// lowered back to JSON (capture records, Accept: application/json), N-Quads streamed from a store that can
// (stream-answer.ts); DELETE /sessions/:id removes it (write token).
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { decodeSegment, IriMinter } from '../../rdf/vocabulary.js';
import { isWellFormed } from '../../rdf/literals.js';
import { mediaTypes, type RdfFormat } from '../../rdf/formats.js';
import { negotiate } from '../negotiate.js';
import { requireWriteToken } from '../write-token.js';
import { answer, problems, sessionIdParam, writeTokenRequired } from '../openapi.js';
import type { StoreRouteOptions } from './store-route-options.js';
import { answerBody } from '../stream-answer.js';

const idParams = {
  type: 'object',
  properties: {
    id: sessionIdParam,
  },
  required: ['id'],
} as const;

const listSchema = {
  type: 'object',
  required: ['sessions'],
  properties: {
    sessions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'graph', 'quads'],
        properties: {
          id: { type: 'string' },
          graph: { type: 'string' },
          quads: { type: 'integer', minimum: 0 },
          href: { type: 'string', description: 'absent for an id no URL can carry' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const tags = ['sessions'];
const sessionFormats: (RdfFormat | 'messages')[] = ['nquads', 'trig', 'jsonld', 'turtle', 'messages'];

export const sessionRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store, config, offload }) => {
  const minter = new IriMinter();
  const prefix = minter.session('');
  const graphOf = (id: string) => minter.session(id);

  app.get(
    '/sessions',
    { schema: { summary: 'The sessions in the store', tags, response: { 200: listSchema, ...problems(502, 503) } } },
    async () => {
      const graphs = await store.graphs();
      return {
        sessions: graphs
          .filter((g) => g.graph.startsWith(prefix))
          .map((g) => {
            // Graphs stored before session ids had to be well-formed may name one with a lone surrogate: listed, with
            // no href (no URL can carry it).
            const id = decodeSegment(g.graph.slice(prefix.length));
            return {
              id,
              graph: g.graph,
              quads: g.quads,
              ...(isWellFormed(id) ? { href: `/sessions/${encodeURIComponent(id)}` } : {}),
            };
          }),
      };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/sessions/:id',
    {
      schema: {
        summary:
          'One session: its quads (N-Quads, TriG, JSON-LD, Turtle) or its messages lowered back to JSON (application/json)',
        tags,
        params: idParams,
        response: {
          200: answer('the session', {
            ...Object.fromEntries(
              sessionFormats
                .filter((f) => f !== 'messages' && f !== 'jsonld')
                .map((f) => [mediaTypes[f as RdfFormat].split(';')[0]!, { type: 'string' }]),
            ),
            'application/ld+json': { type: 'object', additionalProperties: true },
            'application/json': {
              type: 'array',
              description: 'its messages as capture records, in capture order',
              items: { type: 'object', additionalProperties: true },
            },
          }),
          ...problems(404, 406, 422, 429, 502, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const offers = sessionFormats.map((f) => ({
        type: f === 'messages' ? 'application/json' : mediaTypes[f].split(';')[0]!,
      }));
      const index = negotiate(request.headers.accept, offers);
      if (index < 0)
        throw McpLdError.of('http.not-acceptable', {
          detail: `a session is given as ${offers.map((o) => o.type).join(', ')}`,
        });
      const graph = graphOf(request.params.id);
      const format = sessionFormats[index]!;
      const unknown = () =>
        McpLdError.of('session.unknown', { detail: `the store has no session ${JSON.stringify(request.params.id)}` });
      if (format === 'nquads' && store.graphStream) {
        // N-Quads are written a chunk of triples at a time, as the client reads them (a small session at once).
        const stream = await store.graphStream(graph);
        if (!stream) throw unknown();
        return reply.type(mediaTypes.nquads).send(await answerBody(stream, 'nquads', offload, graph));
      }
      const triples = await store.graphText(graph);
      if (triples.length === 0) throw unknown();
      // Parsing, lowering and serializing a session are linear in its size, which has no bound: off the event loop.
      const body = await offload.session(triples, graph, format);
      return reply.type(format === 'messages' ? 'application/json; charset=utf-8' : mediaTypes[format]).send(body);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/sessions/:id',
    {
      schema: {
        summary: 'Remove a session (needs the write token)',
        tags,
        security: writeTokenRequired,
        params: idParams,
        response: {
          204: { description: 'the session was removed', type: 'null' },
          ...problems(401, 403, 404, 423, 502, 503, 507),
        },
      },
    },
    async (request, reply) => {
      requireWriteToken(request, config.writeToken, true);
      if (!(await store.deleteGraph(graphOf(request.params.id)))) {
        throw McpLdError.of('session.unknown', {
          detail: `the store has no session ${JSON.stringify(request.params.id)}`,
        });
      }
      return reply.status(204).send();
    },
  );
};
