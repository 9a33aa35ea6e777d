// GET /ontology and /shapes: the generated OWL ontology and SHACL shapes (ontology/), by content negotiation
// (Turtle, RDF/XML, JSON-LD, N-Triples), cacheable, with ?download for a Content-Disposition attachment.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { ontologyDir } from '../../core/paths.js';
import { McpLdError } from '../../core/problem.js';
import { negotiate } from '../negotiate.js';
import { answer, problems } from '../openapi.js';

const variants = [
  { extension: 'ttl', type: 'text/turtle' },
  { extension: 'rdf', type: 'application/rdf+xml' },
  { extension: 'jsonld', type: 'application/ld+json' },
  { extension: 'nt', type: 'application/n-triples' },
] as const;

export const ontologyRoutes: FastifyPluginAsync = async (app) => {
  for (const [route, base] of [
    ['/ontology', 'mcp-ld'],
    ['/shapes', 'mcp-ld-shapes'],
  ] as const) {
    const files = variants.map((v) => {
      const body = readFileSync(path.join(ontologyDir, `${base}.${v.extension}`), 'utf8');
      return {
        ...v,
        name: `${base}.${v.extension}`,
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      };
    });
    app.get<{ Querystring: { download?: string } }>(
      route,
      {
        schema: {
          summary: route === '/ontology' ? 'The OWL ontology of every protocol version' : 'The SHACL shapes',
          tags: ['vocabulary'],
          querystring: {
            type: 'object',
            properties: {
              download: {
                type: 'string',
                description: 'present (any value): answered as an attachment (Content-Disposition)',
              },
            },
          },
          response: {
            200: answer(
              'the document in the format Accept asks for (ETag, cacheable)',
              Object.fromEntries(
                variants.map((v) => [
                  v.type,
                  v.type === 'application/ld+json'
                    ? { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'array' }] }
                    : { type: 'string' },
                ]),
              ),
            ),
            304: { description: 'the document the If-None-Match ETag names is still current', type: 'null' },
            ...problems(406),
          },
        },
      },
      async (request, reply) => {
        const index = negotiate(
          request.headers.accept,
          files.map((f) => ({ type: f.type })),
        );
        if (index < 0)
          throw McpLdError.of('http.not-acceptable', { detail: `available as ${files.map((f) => f.type).join(', ')}` });
        const file = files[index]!;
        reply.header('ETag', file.etag).header('Cache-Control', 'public, max-age=3600').header('Vary', 'Accept');
        if (request.query.download !== undefined)
          reply.header('Content-Disposition', `attachment; filename="${file.name}"`);
        if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
        return reply.type(file.type).send(file.body);
      },
    );
  }
};
