import { health } from '@keel/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

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
    // Open: no key needed (`security: []`).
    const schema = { tags: ['health'], security: [], response: { 200: health } };
    const summary = 'Whether the service is up: its version and uptime';
    app.get('/health', { schema: { ...schema, operationId: 'getHealth', summary } }, handler);
    app.get('/api/health', { schema: { ...schema, operationId: 'getApiHealth', summary } }, handler);
  };
}
