import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { version } from '../version.ts';

const startedAt = Date.now();

/** `GET /health`: open even when authentication is on. */
export function healthRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/health', async () => ({
      status: 'ok',
      version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    }));
  };
}
