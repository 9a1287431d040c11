import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({ status: z.literal('ok'), version: z.string(), uptime_seconds: z.number() });

/**
 * `GET /health` and its alias `GET /api/health`: `{status: "ok", version, uptime_seconds}`, open even when
 * a key is required (each service's guard lists them as open). `startedAt` is the process's start.
 */
export function healthRoutes(version: string, startedAt = Date.now()): FastifyPluginAsyncZod {
  return async (app) => {
    const handler = async () => ({
      status: 'ok' as const,
      version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    });
    const schema = { tags: ['health'], response: { 200: healthSchema } };
    app.get('/health', { schema }, handler);
    app.get('/api/health', { schema }, handler);
  };
}
