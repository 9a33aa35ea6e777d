// GET /health: liveness and what the service runs on.
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceConfig } from '../../core/config.js';

export const healthRoutes: FastifyPluginAsync<{ config: ServiceConfig; version: string }> = async (app, { config, version }) => {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            properties: { status: { type: 'string' }, version: { type: 'string' }, store: { type: 'string' } },
            required: ['status', 'version', 'store'],
          },
        },
      },
    },
    async () => ({
      status: 'ok',
      version,
      store: config.storeUrl ? 'remote' : config.dataDir ? 'embedded (durable)' : 'embedded (memory only)',
    }),
  );
};
