import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { version } from '../version.ts';

const startedAt = Date.now();

/** `GET /health` (open even when authentication is on) and its alias `GET /api/health`. */
export function healthRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    const health = async () => ({
      status: 'ok',
      version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    });
    app.get('/health', health);
    app.get('/api/health', health);
  };
}
