// GET /contexts/:name and /contexts/messages/:name (2025-06-18, the seed's version), and the same under
// /contexts/:version/ for every protocol version: the generated JSON-LD contexts from contexts/, served as
// application/ld+json with a strong ETag and cache headers (they change only with a new release).
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { contextsDir } from '../../core/paths.js';
import { problemBody } from '../problem-handler.js';
import { answer, problems } from '../openapi.js';

interface ServedContext {
  body: string;
  etag: string;
}

/** Reads every `.jsonld` file under `dir` once, keyed by its path relative to `dir` without the extension. */
function loadContextFiles(dir: string = contextsDir): Map<string, ServedContext> {
  const served = new Map<string, ServedContext>();
  const walk = (sub: string) => {
    const full = path.join(dir, sub);
    if (!existsSync(full)) return;
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.jsonld')) {
        const body = readFileSync(path.join(dir, relative), 'utf8');
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        served.set(relative.replace(/\.jsonld$/, ''), { body, etag });
      }
    }
  };
  walk('');
  return served;
}

const nameParam = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]+$',
      maxLength: 200,
      description: 'the context, with or without .jsonld',
      examples: ['mcp.jsonld'],
    },
  },
  required: ['name'],
} as const;

const messageNameParam = {
  ...nameParam,
  properties: {
    name: {
      ...nameParam.properties.name,
      description: 'the message definition, with or without .jsonld',
      examples: ['CallToolRequest.jsonld'],
    },
  },
} as const;

/** A context document (or 304 to a matching If-None-Match); 404 for a name with none. */
const contextResponses = {
  200: answer('the JSON-LD context (ETag, cacheable)', {
    'application/ld+json': {
      type: 'object',
      required: ['@context'],
      properties: { '@context': { type: 'object', additionalProperties: true } },
      additionalProperties: true,
    },
  }),
  304: { description: 'the context the If-None-Match ETag names is still current', type: 'null' },
  ...problems(404),
};

/** `/contexts/<version>/…`: a protocol version's contexts (an unknown version is a 404 like an unknown context). */
const versionedParams = {
  type: 'object',
  properties: {
    version: {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      description: 'a protocol version',
      examples: ['2026-07-28'],
    },
    name: nameParam.properties.name,
  },
  required: ['version', 'name'],
} as const;

export const contextRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, options) => {
  const contexts = loadContextFiles(options.dir);

  const send = (key: string, request: FastifyRequest, reply: FastifyReply) => {
    const context = contexts.get(key.replace(/\.jsonld$/, ''));
    if (!context) {
      return reply
        .status(404)
        .type('application/problem+json')
        .send(problemBody(404, 'Unknown context', `no context "${key}"; GET /contexts lists them`));
    }
    reply.header('ETag', context.etag).header('Cache-Control', 'public, max-age=3600');
    if (request.headers['if-none-match'] === context.etag) return reply.status(304).send();
    return reply.type('application/ld+json').send(context.body);
  };

  const tags = ['vocabulary'];
  app.get(
    '/contexts',
    {
      schema: {
        summary: 'The JSON-LD contexts served',
        tags,
        response: {
          200: {
            type: 'object',
            required: ['contexts'],
            properties: { contexts: { type: 'array', items: { type: 'string' } } },
            additionalProperties: false,
          },
          ...problems(),
        },
      },
    },
    async () => ({ contexts: [...contexts.keys()].sort().map((name) => `/contexts/${name}.jsonld`) }),
  );
  app.get<{ Params: { name: string } }>(
    '/contexts/:name',
    {
      schema: {
        summary: 'A context of 2025-06-18 (mcp.jsonld: the merged context; json-rpc.jsonld)',
        tags,
        params: nameParam,
        response: contextResponses,
      },
    },
    (request, reply) => send(request.params.name, request, reply),
  );
  app.get<{ Params: { name: string } }>(
    '/contexts/messages/:name',
    {
      schema: {
        summary: 'The context of one message definition of 2025-06-18',
        tags,
        params: messageNameParam,
        response: contextResponses,
      },
    },
    (request, reply) => send(`messages/${request.params.name}`, request, reply),
  );
  app.get<{ Params: { version: string; name: string } }>(
    '/contexts/:version/:name',
    {
      schema: { summary: 'A context of a protocol version', tags, params: versionedParams, response: contextResponses },
    },
    (request, reply) => send(`${request.params.version}/${request.params.name}`, request, reply),
  );
  app.get<{ Params: { version: string; name: string } }>(
    '/contexts/:version/messages/:name',
    {
      schema: {
        summary: 'The context of one message definition of a protocol version',
        tags,
        params: {
          ...versionedParams,
          properties: { ...versionedParams.properties, name: messageNameParam.properties.name },
        },
        response: contextResponses,
      },
    },
    (request, reply) => send(`${request.params.version}/messages/${request.params.name}`, request, reply),
  );
};
