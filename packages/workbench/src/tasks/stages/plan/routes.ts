import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { messageTurnRoute, flowTags as tags, withSession } from '../route-helpers.ts';
import { lockPlan, startPlan } from './plan-stage.ts';

/** Stage 02's endpoints: draft or refine plan.md, lock it. */
export function planRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    messageTurnRoute(
      app,
      deps,
      {
        path: '/api/tasks/:id/plan',
        operationId: 'planTask',
        summary: 'Draft plan.md, or refine it by message (202)',
        description: '02: drafts plan.md, or refines it with message (same session) (202).',
      },
      startPlan,
    );
    app.post(
      '/api/tasks/:id/lock-plan',
      {
        schema: {
          tags,
          operationId: 'lockPlan',
          summary: 'Lock the plan and start todo generation (202)',
          successStatus: 202,
          description: '02 → 03: locks the plan and starts todo generation in the plan session (202).',
          params: idParams,
          response: responses(wire.taskWithSession, 400, 404, 409, 422),
        },
      },
      async (request, reply) =>
        reply.status(202).send(await withSession(deps, await lockPlan(deps, request.params.id))),
    );
  };
}
