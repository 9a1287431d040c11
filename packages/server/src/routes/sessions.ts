import { deleted, session, sessionDetail, sessionList } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';

const idParams = z.object({ session_id: z.string().min(1) });

/** Sessions (spec section 4): the conversations `session_id` continues. */
export function sessionRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sessions',
      {
        schema: {
          querystring: z.object({
            title: z.string().default('New session'),
            model: z.string().default(''),
            workdir: z.string().default(''),
          }),
          response: responses(session, 400),
        },
      },
      async (request) => pool.for().sessions.create(request.query),
    );

    app.get(
      '/sessions',
      {
        schema: {
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(20) }),
          response: responses(sessionList, 400),
        },
      },
      async (request) => ({ sessions: pool.for().sessions.list(request.query.limit) }),
    );

    app.get(
      '/sessions/:session_id',
      { schema: { params: idParams, response: responses(sessionDetail, 404) } },
      async (request) => pool.for().sessions.detail(request.params.session_id),
    );

    app.delete(
      '/sessions/:session_id',
      { schema: { params: idParams, response: responses(deleted, 404) } },
      async (request) => {
        pool.for().sessions.delete(request.params.session_id);
        return { status: 'deleted' as const, id: request.params.session_id };
      },
    );
  };
}
