import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, requirePrivileged, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { viewTask } from '../../task-service.ts';
import { flowTags as tags } from '../route-helpers.ts';
import { confirmInit, startInit } from './init-stage.ts';
import { runSetupAgain } from './setup-again.ts';

/** Stage 01's endpoints: start (or retry) the init steps, confirm them, run the setup again. */
export function initRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/tasks/:id/init',
      {
        schema: {
          tags,
          operationId: 'initTask',
          summary: "Run the task's init steps: clone, sync skills, copy knowledge (202)",
          successStatus: 202,
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
          operationId: 'confirmTaskInit',
          summary: 'Confirm the initialization: on to planning',
          description: '01 → 02: the user confirms the initialization.',
          params: idParams,
          response: responses(wire.task, 400, 404, 409, 422),
        },
      },
      async (request) => viewTask(deps, await confirmInit(deps, request.params.id)),
    );
    app.post(
      '/api/tasks/:id/setup',
      {
        schema: {
          tags,
          operationId: 'runTaskSetup',
          summary: "Run the repositories' setup again in the task's workspaces (202)",
          successStatus: 202,
          description:
            "Runs every repository's setup step again in the task's workspaces (202), once init is done and until the task is done: after turning the project's run_setup on, editing a setup command, or an environment problem. The steps show on the task's init steps and in its init session; in CODING a successful setup takes the checks' baseline again. 409 NO_SETUP_COMMAND when no repository has one, TASK_BUSY while the task works. It runs the repositories' install scripts with the network on: from another origin than the workbench's own, 403 PERMISSION_DENIED unless the request carries the API key.",
          params: idParams,
          response: responses(wire.task, 400, 403, 404, 409),
        },
      },
      async (request, reply) => {
        requirePrivileged(request, ['setup']);
        return reply.status(202).send(await viewTask(deps, await runSetupAgain(deps, request.params.id)));
      },
    );
  };
}
