import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { viewTask } from '../../task-service.ts';
import { flowTags as tags } from '../route-helpers.ts';
import { confirmInit, startInit } from './init-stage.ts';

/** Stage 01's endpoints: start (or retry) the init steps, confirm them. */
export function initRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/tasks/:id/init',
      {
        schema: {
          tags,
          description: '01: clone, sync skills, copy knowledge (202). Again: retries the steps not done.',
          params: idParams,
          response: responses(wire.task, 400, 404, 409, 422),
        },
      },
      async (request, reply) =>
        reply.status(202).send(await viewTask(deps, await startInit(deps, request.params.id))),
    );
    app.post(
      '/api/tasks/:id/confirm-init',
      {
        schema: {
          tags,
          description: '01 → 02: the user confirms the initialization.',
          params: idParams,
          response: responses(wire.task, 400, 404, 409, 422),
        },
      },
      async (request) => viewTask(deps, await confirmInit(deps, request.params.id)),
    );
  };
}
