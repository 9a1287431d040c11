import { deleted, session, sessionDetail, sessionList } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';

const idParams = z.object({ session_id: z.string().min(1) });

/** Sessions (spec section 4): the conversations `session_id` continues. */
export function sessionRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sessions'];
    app.post(
      '/sessions',
      {
        schema: {
          tags,
          operationId: 'createSession',
          summary: 'Create an empty session (message_count 0)',
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
          tags,
          operationId: 'listSessions',
          summary: 'The most recent sessions',
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(20) }),
          response: responses(sessionList, 400),
        },
      },
      async (request) => ({ sessions: pool.for().sessions.list(request.query.limit) }),
    );

    app.get(
      '/sessions/:session_id',
      {
        schema: {
          tags,
          operationId: 'getSession',
          summary: 'A session with its messages',
          params: idParams,
          response: responses(sessionDetail, 404),
        },
      },
      async (request) => pool.for().sessions.detail(request.params.session_id),
    );

    app.delete(
      '/sessions/:session_id',
      {
        schema: {
          tags,
          operationId: 'deleteSession',
          summary: 'Delete a session',
          params: idParams,
          response: responses(deleted, 404),
        },
      },
      async (request) => {
        pool.for().sessions.delete(request.params.session_id);
        return { status: 'deleted' as const, id: request.params.session_id };
      },
    );
  };
}
