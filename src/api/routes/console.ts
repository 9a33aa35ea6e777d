// Serves the web console: GET / is its page, GET /console/assets/* its scripts and styles, all from the package
// (nothing from elsewhere: the page's Content-Security-Policy lets it load and call only this service). The console is
// read-only: it calls the GET routes of the service (named queries, /sparql, /sessions, /events, /ontology).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { McpLdError } from '../../core/problem.js';
import { consolePolicy, readConsoleFiles, type ConsoleFile } from '../../console/console-assets.js';
import { answer, problems } from '../openapi.js';

export const consoleRoutes: FastifyPluginAsync<{ dir?: string }> = async (app, { dir }) => {
  const files = readConsoleFiles(dir);

  const send = (request: FastifyRequest, reply: FastifyReply, name: string, cache: string) => {
    const file: ConsoleFile | undefined = files.get(name);
    if (file === undefined) {
      if (files.size === 0)
        throw McpLdError.of('console.not-built', {
          detail: 'the web console has not been built into dist/console: run npm run build (npm install does)',
        });
      throw McpLdError.of('console.unknown-asset', { detail: `the console has no file ${JSON.stringify(name)}` });
    }
    reply
      .header('ETag', file.etag)
      .header('Cache-Control', cache)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', consolePolicy)
      .header('Referrer-Policy', 'no-referrer');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    return reply.type(file.type).send(file.body);
  };

  const schema = {
    summary: 'The web console (HTML)',
    tags: ['console'],
    response: {
      200: answer('the page', { 'text/html': { type: 'string' } }),
      304: { description: 'the page the If-None-Match ETag names is still current', type: 'null' },
      ...problems(503),
    },
  };
  app.get('/', { schema }, (request, reply) => send(request, reply, 'index.html', 'no-cache'));
  app.get<{ Params: { '*': string } }>('/console/assets/*', { schema: { hide: true } }, (request, reply) =>
    send(request, reply, `assets/${request.params['*']}`, 'no-cache'),
  );
};
