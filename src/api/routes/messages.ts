// GET /sessions/:id/messages/:order: one message of a session, by its order in the session (the `order` of the
// session-timeline query): lowered back to JSON, exactly as it was on the wire (a capture record, Accept:
// application/json), or its triples (N-Triples, Turtle). Read from the message's own nodes, not from its session.
import type { FastifyPluginAsync } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { IriMinter } from '../../rdf/vocabulary.js';
import { mediaTypes, type RdfFormat } from '../../rdf/formats.js';
import { quadsToNQuads } from '../../rdf/nquads.js';
import { messageAt, messageTriples } from '../../query/index.js';
import { negotiate } from '../negotiate.js';
import { answer, problems, sessionIdParam } from '../openapi.js';
import type { StoreRouteOptions } from './store-route-options.js';

const messageParams = {
  type: 'object',
  properties: {
    id: sessionIdParam,
    order: {
      type: 'integer',
      minimum: 0,
      description: 'the order of the message in its session (session-timeline gives it)',
      examples: [1],
    },
  },
  required: ['id', 'order'],
} as const;
const messageFormats: (RdfFormat | 'messages')[] = ['messages', 'nquads', 'turtle'];

export const messageRoutes: FastifyPluginAsync<StoreRouteOptions> = async (app, { store, config, offload }) => {
  const minter = new IriMinter();

  app.get<{ Params: { id: string; order: number } }>(
    '/sessions/:id/messages/:order',
    {
      schema: {
        summary:
          'One message of a session: lowered back to its JSON (application/json) or its triples (N-Triples, Turtle)',
        tags: ['sessions'],
        params: messageParams,
        response: {
          200: answer('the message', {
            'application/json': {
              type: 'object',
              description: 'its capture record, exactly as on the wire',
              additionalProperties: true,
            },
            'application/n-triples': { type: 'string' },
            'text/turtle': { type: 'string' },
          }),
          ...problems(404, 406, 422, 429, 502, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const offers = messageFormats.map((f) => ({
        type:
          f === 'messages'
            ? 'application/json'
            : f === 'nquads'
              ? 'application/n-triples'
              : mediaTypes[f].split(';')[0]!,
      }));
      const index = negotiate(request.headers.accept, offers);
      if (index < 0)
        throw McpLdError.of('http.not-acceptable', {
          detail: `a message is given as ${offers.map((o) => o.type).join(', ')}`,
        });
      const { id, order } = request.params;
      const graph = minter.session(id);
      const options = { timeoutMs: config.queryTimeoutMs };
      const message = await messageAt(store, graph, order, options);
      if (message === undefined)
        throw McpLdError.of('message.unknown', {
          detail: `the store has no message ${order} in session ${JSON.stringify(id)}`,
        });
      const triples = Buffer.from(quadsToNQuads(await messageTriples(store, graph, message, options)));
      const format = messageFormats[index]!;
      if (format === 'nquads') return reply.type('application/n-triples; charset=utf-8').send(triples);
      const body = await offload.session(triples, graph, format);
      if (format === 'turtle') return reply.type(mediaTypes.turtle).send(body);
      // The session's lowering gives a list: this message is its one record.
      const [record] = JSON.parse(body.toString('utf8')) as unknown[];
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(record));
    },
  );
};
