// Builds the Fastify application from its route plugins (one per route group) and starts it. An adapter over the
// core: it translates HTTP to core calls and core errors to problem+json, and holds no logic of its own.
import Fastify, { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServiceConfig } from '../core/config.js';
import { packageRoot } from '../core/paths.js';
import { registerProblemHandler } from './problem-handler.js';
import { healthRoutes } from './routes/health.js';
import { contextRoutes } from './routes/contexts.js';

export const packageVersion: string = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')).version;

export async function buildServer(config: ServiceConfig, options: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
  });
  registerProblemHandler(app);
  await app.register(healthRoutes, { config, version: packageVersion });
  await app.register(contextRoutes, {});
  return app;
}

export async function startServer(config: ServiceConfig): Promise<FastifyInstance> {
  const app = await buildServer(config);
  await app.listen({ host: config.host, port: config.port });
  if (!config.dataDir && !config.storeUrl) app.log.warn('no data directory or remote store configured: the store is memory-only');
  return app;
}
