import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { version } from '../version.ts';

const startedAt = Date.now();
const health = z.object({ status: z.literal('ok'), version: z.string(), uptime_seconds: z.number() });

/** `GET /health` and its alias `GET /api/health`, open even when authentication is on. */
export function healthRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    const handler = async () => ({
      status: 'ok' as const,
      version,
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    });
    const schema = { tags: ['health'], response: { 200: health } };
    app.get('/health', { schema }, handler);
    app.get('/api/health', { schema }, handler);
  };
}
