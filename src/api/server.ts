// Builds the Fastify application from its route plugins (one per route group) and starts it. An adapter over the
// core: it translates HTTP to core calls and core errors to problem+json, and holds no logic of its own.
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServiceConfig } from '../core/config.js';
import { packageRoot } from '../core/paths.js';
import { registerProblemHandler } from './problem-handler.js';
import { healthRoutes } from './routes/health.js';
import { contextRoutes } from './routes/contexts.js';
import { convertRoutes } from './routes/convert.js';

export const packageVersion: string = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')).version;

export async function buildServer(config: ServiceConfig, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
  });
  registerProblemHandler(app);
  // OpenAPI 3 generated from the route schemas, at /openapi.json, with a docs page at /docs (assets bundled, not fetched).
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'mcp-ld', version: packageVersion, description: 'A JSON-LD / RDF bridge for the Model Context Protocol: conversion, contexts, and (soon) ingestion and SPARQL.' },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(healthRoutes, { config, version: packageVersion });
  await app.register(contextRoutes, {});
  await app.register(convertRoutes);
  return app;
}

export async function startServer(config: ServiceConfig): Promise<FastifyInstance> {
  const app = await buildServer(config);
  await app.listen({ host: config.host, port: config.port });
  if (!config.dataDir && !config.storeUrl) app.log.warn('no data directory or remote store configured: the store is memory-only');
  return app;
}
