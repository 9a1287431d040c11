import { serverMetrics } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sumRuns } from '../run-totals.ts';
import type { RuntimePool } from '../runtime-pool.ts';

/** `GET /metrics`: run, token and cost totals of the server's default store, and the server's uptime. */
export function metricsRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  const startedAt = Date.now();
  return async (app) => {
    const schema = {
      tags: ['server'],
      operationId: 'getMetrics',
      summary: "Run, token and cost totals of the server's default store, and its uptime",
      response: responses(serverMetrics),
    };
    app.get('/metrics', { schema }, async () => ({
      ...(await sumRuns(pool.for())),
      uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    }));
  };
}
