import { deleted, newTask, task, taskPage, taskUpdate } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answerInvalidFieldsWith422 } from '../errors.ts';
import type { RuntimePool } from '../runtime-pool.ts';
import { page, pageQuery } from './projects.ts';

const projectParams = z.object({ project_id: z.string().min(1) });
const taskParams = z.object({ task_id: z.string().min(1) });

/**
 * Development tasks (spec section 4, "Web API"): `GET`/`POST /api/projects/{project_id}/tasks` and
 * `GET`/`PUT`/`DELETE /api/tasks/{task_id}`. Creating one creates or switches to its branch in the
 * project's repository and gives it its own session. A missing project or task is 404, an invalid field
 * (a branch name git refuses included) 422, a repository that cannot switch (uncommitted changes, no git)
 * 409 INVALID_STATE with nothing changed.
 */
export function taskRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    answerInvalidFieldsWith422(app);
    const tags = ['tasks'];

    app.get(
      '/api/projects/:project_id/tasks',
      {
        schema: {
          tags,
          operationId: 'listProjectTasks',
          summary: "A project's tasks, newest first: {tasks, next_cursor}",
          params: projectParams,
          querystring: pageQuery,
          response: responses(taskPage, 404, 422),
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        const { items, next_cursor } = await pool.find((runtime) =>
          page(limit, (query) => runtime.tasks.list(request.params.project_id, query), cursor),
        );
        return { tasks: items, next_cursor };
      },
    );

    app.post(
      '/api/projects/:project_id/tasks',
      {
        schema: {
          tags,
          operationId: 'createTask',
          successStatus: 201,
          summary: 'Create a task: creates or switches to branch_name in the project repository (201)',
          params: projectParams,
          body: newTask,
          response: responses(task, 404, 409, 422),
        },
      },
      async (request, reply) => {
        const task = await pool.find((runtime) =>
          runtime.tasks.create(request.params.project_id, request.body),
        );
        return reply.status(201).send(task);
      },
    );

    app.get(
      '/api/tasks/:task_id',
      {
        schema: {
          tags,
          operationId: 'getTask',
          summary: 'Read a task',
          params: taskParams,
          response: responses(task, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.tasks.get(request.params.task_id)),
    );

    app.put(
      '/api/tasks/:task_id',
      {
        schema: {
          tags,
          operationId: 'updateTask',
          summary: 'Update a task: rename it, or move it to another branch (created or switched to)',
          params: taskParams,
          body: taskUpdate,
          response: responses(task, 404, 409, 422),
        },
      },
      async (request) => pool.find((runtime) => runtime.tasks.update(request.params.task_id, request.body)),
    );

    app.delete(
      '/api/tasks/:task_id',
      {
        schema: {
          tags,
          operationId: 'deleteTask',
          summary: "Delete a task's record (its branch, session and runs stay)",
          params: taskParams,
          response: responses(deleted, 404),
        },
      },
      async (request) => {
        await pool.find((runtime) => runtime.tasks.delete(request.params.task_id));
        return { status: 'deleted' as const, id: request.params.task_id };
      },
    );
  };
}
