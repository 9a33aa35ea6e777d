// Builds the Fastify application from its route plugins (one per route group) and starts it. An adapter over the
// core: it translates HTTP to core calls and core errors to problem+json, and holds no logic of its own.
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServiceConfig } from '../core/config.js';
import { packageRoot } from '../core/paths.js';
import { openStore } from '../store/open-store.js';
import { McpLdError } from '../core/problem.js';
import type { QuadStore } from '../store/quad-store.js';
import type { SessionPartials } from '../query/index.js';
import { Metrics } from './metrics.js';
import { Offload } from './offload.js';
import { IngestLifting } from './ingest-lifting.js';
import { clientErrorProblem, frameworkProblem, registerProblemHandler } from './problem-handler.js';
import { registerHostGuard } from './host-guard.js';
import { registerBodyTimeout } from './body-timeout.js';
import { answer, problems, registerOpenApi } from './openapi.js';
import { healthRoutes } from './routes/health.js';
import { contextRoutes } from './routes/contexts.js';
import { convertRoutes } from './routes/convert.js';
import { ingestRoutes } from './routes/ingest.js';
import { sparqlRoutes } from './routes/sparql.js';
import { queryRoutes } from './routes/queries.js';
import { sessionRoutes } from './routes/sessions.js';
import { ontologyRoutes } from './routes/ontology.js';
import { messageRoutes } from './routes/messages.js';
import { eventRoutes } from './routes/events.js';
import { consoleRoutes } from './routes/console.js';

export const packageVersion: string = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')).version;

export interface BuildOptions {
  logger?: boolean;
  /** A store to serve (tests); otherwise the one the configuration names is opened, and closed with the server. */
  store?: QuadStore;
  /**
   * The named queries' kept answers (query/session-partials.ts) over `store`, for a caller that waits for them
   * (a bench); otherwise the server keeps its own where the store tells its writes. Closed by the caller.
   */
  sessionPartials?: SessionPartials;
  onWarning?: (message: string) => void;
}

export async function buildServer(config: ServiceConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    // A session id of up to 500 characters (src/lift/records.ts), each up to four UTF-8 bytes written as %XX: the
    // router's default (100) answered 414 for session ids the store holds.
    routerOptions: { maxParamLength: 6000 },
    frameworkErrors: frameworkProblem,
    clientErrorHandler: clientErrorProblem,
  });
  registerProblemHandler(app);
  registerHostGuard(app, config);
  registerBodyTimeout(app, config.bodyTimeoutMs);
  const store =
    options.store ??
    (await openStore(config, {
      command: 'serve',
      onWarning: options.onWarning ?? ((message) => app.log.warn(message)),
    }));
  if (!options.store) app.addHook('onClose', () => store.close());
  const metrics = new Metrics();
  app.addHook('onResponse', async (request, reply) => {
    metrics.count('mcpld_http_requests_total', 'HTTP requests answered', {
      method: request.method,
      route: request.routeOptions.url ?? 'unknown',
      status: String(reply.statusCode),
    });
  });
  if (config.corsOrigins.length > 0)
    await app.register(cors, {
      origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
      exposedHeaders: ['MCP-LD-Session', 'MCP-LD-Messages', 'MCP-LD-Quads', 'MCP-LD-Invalid-Messages'],
    });
  await registerOpenApi(app, { version: packageVersion });

  const offload = new Offload(config);
  const lifting = new IngestLifting();
  app.addHook('onClose', () => Promise.all([offload.close(), lifting.close()]).then(() => undefined));
  const routeOptions = { store, config, metrics, offload };
  await app.register(healthRoutes, { config, version: packageVersion });
  await app.register(contextRoutes, {});
  await app.register(ontologyRoutes);
  await app.register(convertRoutes, { offload });
  await app.register(ingestRoutes, { ...routeOptions, lifting });
  await app.register(sparqlRoutes, routeOptions);
  await app.register(queryRoutes, {
    ...routeOptions,
    ...(options.sessionPartials ? { partials: options.sessionPartials } : {}),
  });
  await app.register(sessionRoutes, routeOptions);
  await app.register(messageRoutes, routeOptions);
  await app.register(eventRoutes, routeOptions);
  await app.register(consoleRoutes, {});
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags: ['service'],
        response: {
          200: answer('the metrics in the Prometheus text format', { 'text/plain': { type: 'string' } }),
          ...problems(503),
        },
      },
    },
    async (_request, reply) => {
      const [size, graphs] = await Promise.all([store.size(), store.graphs()]);
      const text = metrics.render([
        { name: 'mcpld_store_quads', help: 'Quads in the store', value: size },
        { name: 'mcpld_store_sessions', help: 'Session graphs in the store', value: graphs.length },
      ]);
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
    },
  );
  return app;
}

export async function startServer(
  config: ServiceConfig,
  onWarning?: (message: string) => void,
): Promise<FastifyInstance> {
  const app = await buildServer(config, onWarning ? { onWarning } : {});
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close(); // the store too: a data directory it holds goes to the next process
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw McpLdError.of('service.port-in-use', {
        detail: `port ${config.port} on ${config.host} is in use; pass --port or MCPLD_PORT`,
      });
    if (code === 'EADDRNOTAVAIL' || code === 'EACCES')
      throw McpLdError.of('service.cannot-listen', {
        detail: `${config.host}:${config.port}: ${(error as Error).message}; pass --host/--port or MCPLD_HOST/MCPLD_PORT`,
      });
    throw error;
  }
  return app;
}
