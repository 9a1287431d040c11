import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { viewTask } from '../../task-service.ts';
import { findingParams, followUpBody } from '../../types.ts';
import { followUp } from './follow-up.ts';
import { dismissFinding, startReview } from './reviewer.ts';

/** Stage 05's review and what follows the merge request: findings, follow-up todos, the MR's life. */
export function followUpRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['flow'];
    app.post(
      '/api/tasks/:id/review',
      {
        schema: {
          tags,
          operationId: 'reviewTask',
          summary: 'Run the reviewer again over the whole change (202)',
          successStatus: 202,
          description:
            "05: the reviewer again over the whole change (it runs by itself on entering review): read-only, the project's review_runner or the task's runner; its findings land in task.review (202).",
          params: idParams,
          response: responses(wire.taskWithSession, 404, 409, 422),
        },
      },
      async (request, reply) => {
        const { task, session } = await startReview(deps, request.params.id);
        return reply.status(202).send({ task: await viewTask(deps, task), session });
      },
    );
    app.post(
      '/api/tasks/:id/findings/:finding_id/dismiss',
      {
        schema: {
          tags,
          operationId: 'dismissFinding',
          summary: 'Dismiss a review finding',
          description: '05: marks a review finding dismissed (it is not offered as a follow-up).',
          params: findingParams,
          response: responses(wire.reviewFinding, 404, 409),
        },
      },
      (request) => dismissFinding(deps, request.params.id, request.params.finding_id),
    );
    app.post(
      '/api/tasks/:id/follow-up',
      {
        schema: {
          tags,
          operationId: 'followUpTask',
          summary: 'Turn findings, merge request checks or comments into todos: back to coding',
          description:
            '05 or DONE → 04: review findings (`findings`: ids), failed checks or comments of the merge request (`merge_request`: [{repository, check | comment_id}]) and todos written out (`todos`) become todos at the end of the list; the task goes back to CODING on the same branch, and its next submit updates the same merge request.',
          params: idParams,
          body: followUpBody,
          response: responses(wire.taskWithTodos, 400, 404, 409),
        },
      },
      async (request) => {
        const { task, todos } = await followUp(deps, request.params.id, request.body);
        return { task: await viewTask(deps, task), todos };
      },
    );
    app.get(
      '/api/tasks/:id/merge-requests',
      {
        schema: {
          tags,
          operationId: 'listMergeRequests',
          summary: "The task's submitted merge requests as last read",
          description:
            'The submitted merge requests as last read: state, checks, comments, or why they could not be read (followed by itself until merged or closed).',
          params: idParams,
          response: responses(wire.taskMergeRequests, 404),
        },
      },
      async (request) => {
        const task = await deps.store.get(request.params.id);
        return { task_id: task.id, merge_requests: task.merge_requests ?? [] };
      },
    );
    app.post(
      '/api/tasks/:id/merge-requests/refresh',
      {
        schema: {
          tags,
          operationId: 'refreshMergeRequests',
          summary: 'Read the followed merge requests again now',
          description: 'Reads every followed merge request now from GitHub or GitLab with the stored token.',
          params: idParams,
          response: responses(wire.taskMergeRequests, 404, 409),
        },
      },
      async (request) => {
        await deps.store.check(request.params.id, 'refresh_merge_requests');
        const task = await deps.mergeRequests.refresh(request.params.id);
        deps.mergeRequests.follow(task.id);
        return { task_id: task.id, merge_requests: task.merge_requests ?? [] };
      },
    );
  };
}
