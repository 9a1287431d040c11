import { serverMetrics } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sumRuns } from '../run-totals.ts';
import type { RuntimePool } from '../runtime-pool.ts';

/** `GET /metrics`: run, token and cost totals of the server's default store, and the server's uptime. */
export function metricsRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  const startedAt = Date.now();
  return async (app) => {
    app.get('/metrics', { schema: { response: responses(serverMetrics) } }, async () => ({
      ...(await sumRuns(pool.for())),
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    }));
  };
}
