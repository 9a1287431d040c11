import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, noContent, responses } from '../http/index.ts';
import type { TaskDeps } from './deps.ts';
import { cancelTask, createTask, deleteTask, reopenTask, updateTask, viewTask } from './task-service.ts';
import { taskCreateSchema, taskListQuery, taskUpdateSchema } from './types.ts';

/** Tasks CRUD on `/api/tasks` (`?project_id=`), cancel and re-open. */
export function taskRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['tasks'];
    app.get(
      '/api/tasks',
      { schema: { tags, querystring: taskListQuery, response: responses(wire.taskList, 400) } },
      async (request) => ({
        tasks: deps.store.list(request.query.project_id).map((task) => viewTask(deps, task)),
      }),
    );
    app.post(
      '/api/tasks',
      {
        schema: {
          tags,
          description:
            'Creates a task (state CREATED). Branch default: keel/<slug>-<short id>, checked by git ref rules.',
          body: taskCreateSchema,
          response: responses(wire.task, 400, 404, 422),
        },
      },
      async (request, reply) => reply.status(201).send(viewTask(deps, createTask(deps, request.body))),
    );
    app.get(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          params: idParams,
          response: responses(wire.task, 404),
        },
      },
      async (request) => viewTask(deps, deps.store.get(request.params.id)),
    );
    app.put(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          description:
            'Changes the input fields (until planning ends). A state field is refused with 409 INVALID_STATE.',
          params: idParams,
          body: taskUpdateSchema,
          response: responses(wire.task, 400, 404, 409, 422),
        },
      },
      async (request) => viewTask(deps, updateTask(deps, request.params.id, request.body)),
    );
    app.delete(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          description:
            'Stops the running work first (a todo, a plan turn, run-all, the init steps) and waits for it to end, then deletes the task and its work directory (204).',
          params: idParams,
          response: responses(noContent, 404, 409),
        },
      },
      async (request, reply) => {
        await deleteTask(deps, request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/tasks/:id/cancel',
      { schema: { tags, params: idParams, response: responses(wire.task, 404, 409) } },
      async (request) => viewTask(deps, cancelTask(deps, request.params.id)),
    );
    app.post(
      '/api/tasks/:id/reopen',
      {
        schema: {
          tags,
          params: idParams,
          response: responses(wire.task, 404, 409),
        },
      },
      async (request) => viewTask(deps, reopenTask(deps, request.params.id)),
    );
  };
}
