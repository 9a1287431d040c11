import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WorkbenchError } from '../../../errors.ts';
import { filePatch } from '../../../git/index.ts';
import { idParams, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { viewTask } from '../../task-service.ts';
import { submitBody } from '../../types.ts';
import { messageTurnRoute, flowTags as tags } from '../route-helpers.ts';
import { followUpRoutes } from './follow-up-routes.ts';
import { startCommitMessage, submitMergeRequest } from './review-stage.ts';
import { taskDiffJson } from './task-diff.ts';

/** Stage 05's endpoints: the change, the commit message, the merge request; then the reviewer and follow-ups. */
export function reviewRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/tasks/:id/diff',
      {
        schema: {
          tags,
          operationId: 'getTaskDiff',
          summary: "The task's change in every repository",
          description: '05: every repository, base commit..working tree: files and patch.',
          params: idParams,
          response: responses(wire.taskDiff, 400, 404, 409, 422),
        },
      },
      // Checked and serialised in the worker thread (task-diff.ts): sent as the JSON text it already is.
      async (request, reply) => {
        const json = await taskDiffJson(deps, request.params.id);
        return reply.type('application/json; charset=utf-8').send(json as never);
      },
    );
    app.get(
      '/api/tasks/:id/diff/file',
      {
        schema: {
          tags,
          operationId: 'getTaskFileDiff',
          summary: "One file's patch in the task's change",
          description:
            "05: one file's patch, base commit..working tree as in the task diff (for a file past its 1 MiB cut); path must be one of the diff's files.",
          params: idParams,
          querystring: fileDiffQuery,
          response: responses(wire.fileDiff, 400, 404, 409),
        },
      },
      async (request) => {
        const { repository, path } = request.query;
        const task = await deps.store.get(request.params.id);
        const workspace = task.workspaces.find((each) => each.repository === repository);
        if (!workspace) {
          throw new WorkbenchError('NOT_FOUND', `The task has no repository '${repository}'.`, {
            repository,
          });
        }
        deps.busy.assertOpen(task.id);
        return { repository, path, ...(await filePatch(workspace.dir, workspace.base_commit, path)) };
      },
    );
    messageTurnRoute(
      app,
      deps,
      {
        path: '/api/tasks/:id/commit-message',
        operationId: 'writeCommitMessage',
        summary: 'Have the commit message written, or adjust it by message (202)',
        description: '05: the AI commit message, adjustable by message in the same session (202).',
      },
      startCommitMessage,
    );
    app.post(
      '/api/tasks/:id/submit-mr',
      {
        schema: {
          tags,
          operationId: 'submitMergeRequest',
          summary: 'Commit, push and open the merge requests; the task is then DONE',
          description: '05: commit, push, open the MR/PR per changed repository; then DONE with results.',
          params: idParams,
          body: submitBody.nullish(),
          response: responses(wire.task, 400, 404, 409, 422, 502),
        },
      },
      async (request) =>
        viewTask(deps, await submitMergeRequest(deps, request.params.id, request.body ?? {})),
    );
    await app.register(followUpRoutes(deps));
  };
}

const fileDiffQuery = z.strictObject({
  repository: z.string().min(1).max(500),
  path: z.string().min(1).max(4096),
});
