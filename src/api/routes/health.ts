// GET /health: liveness and what the service runs on.
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceConfig } from '../../core/config.js';
import { problems } from '../openapi.js';

export const healthRoutes: FastifyPluginAsync<{ config: ServiceConfig; version: string }> = async (
  app,
  { config, version },
) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness, the version and the kind of store',
        tags: ['service'],
        response: {
          200: {
            type: 'object',
            properties: {
              status: { type: 'string', enum: ['ok'] },
              version: { type: 'string' },
              store: { type: 'string', enum: ['remote', 'embedded (durable)', 'embedded (memory only)'] },
            },
            required: ['status', 'version', 'store'],
            additionalProperties: false,
          },
          ...problems(),
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
