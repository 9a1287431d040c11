import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { messageTurnRoute, flowTags as tags } from '../route-helpers.ts';
import { startTodos } from './todos-stage.ts';

/** Stage 03's endpoints: generate or adjust the todo list, read it. */
export function todosRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    messageTurnRoute(
      app,
      deps,
      {
        path: '/api/tasks/:id/todo',
        operationId: 'generateTodos',
        summary: 'Generate the todo list again, or adjust it by message (202)',
        description: '03: generates the todo list again, or adjusts it by message (202).',
      },
      (deps, taskId, message) => startTodos(deps, taskId, message),
    );
    app.get(
      '/api/tasks/:id/todos',
      {
        schema: {
          tags,
          operationId: 'listTodos',
          summary: "The task's todos, in order",
          params: idParams,
          response: responses(wire.todoList, 404),
        },
      },
      async (request) => {
        await deps.store.get(request.params.id);
        return { todos: await deps.store.todos(request.params.id) };
      },
    );
  };
}
