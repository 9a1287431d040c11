import { errorBody, runEvent } from '@keel/protocol/runtime';
import type { Runtime } from '@keel/runtime';
import { eventStream } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { openEventStream } from '../sse.ts';

/** The web stream ends by itself after this long with no event (spec section 8). */
export const streamIdleMs = 10 * 60_000;

/**
 * `GET /runtime/runs/{id}/events`: the run's stored events as Server-Sent Events, from a cursor, then live
 * until the run ends. Each message is `id: <seq>` and `data: <event JSON>`; a client that reconnects
 * with `Last-Event-ID` (or `?after=`) gets exactly the events it missed, in order, none twice. The events go
 * out as the store keeps their JSON (no parse, no serialise): `runEvent` documents them, and the tests
 * parse what they read against it.
 */
export function runtimeEventRoutes(
  pool: RuntimePool,
  options: { idleMs?: number } = {},
): FastifyPluginAsyncZod {
  const idleMs = options.idleMs ?? streamIdleMs;
  return async (app) => {
    app.get(
      '/runtime/runs/:id/events',
      {
        schema: {
          tags: ['runs'],
          operationId: 'streamRunEvents',
          summary:
            "A run's events as Server-Sent Events from a cursor (`after`, `Last-Event-ID`), live to its end",
          params: z.object({ id: z.string().min(1) }),
          querystring: z.object({ after: z.coerce.number().int().min(0).optional() }),
          headers: z.looseObject({ 'last-event-id': z.coerce.number().int().min(0).optional() }),
          response: {
            200: eventStream(runEvent, "The run's events: `id: <seq>`, `data: <event>`, live to the end"),
            400: errorBody,
            404: errorBody,
          },
        },
      },
      async (request, reply) => {
        const runId = request.params.id;
        // Before the stream starts, so an unknown run is a plain 404 in the error shape.
        const runtime: Runtime = await pool.find(async (each) => {
          await each.runs.get(runId);
          return each;
        });
        const after = request.query.after ?? request.headers['last-event-id'] ?? 0;
        const stream = openEventStream(reply, idleMs);
        try {
          // A page at a time, each as stored: a long run replays without being parsed or held in memory.
          for await (const page of runtime.runs.watchPages(runId, { after, signal: stream.signal })) {
            await stream.sendJson(page);
          }
        } catch (error) {
          if (!stream.signal.aborted) request.log.error({ err: error }, 'event stream failed');
        } finally {
          stream.end();
        }
      },
    );
  };
}
