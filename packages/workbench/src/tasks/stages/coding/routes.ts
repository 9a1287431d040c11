import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../../http/index.ts';
import type { TaskDeps } from '../../deps.ts';
import { viewTask } from '../../task-service.ts';
import { flowTags as tags } from '../route-helpers.ts';
import { runBaseline } from './baseline.ts';
import { executeTodo, runAll, skipTodo, startCoding, todoDiff } from './coding-stage.ts';

/**
 * Stage 04's endpoints: start coding, run one todo or all, skip one, read a todo and its changes, take the
 * checks' baseline again.
 */
export function codingRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const started = responses(wire.task, 400, 404, 409, 422);
    app.post(
      '/api/tasks/:id/start-coding',
      {
        schema: {
          tags,
          operationId: 'startCoding',
          summary: 'Start coding: on to the todos',
          description: '03 → 04.',
          params: idParams,
          response: started,
        },
      },
      async (request) => viewTask(deps, await startCoding(deps, request.params.id)),
    );
    app.post(
      '/api/tasks/:id/run-all',
      {
        schema: {
          tags,
          operationId: 'runAllTodos',
          summary: 'Run the remaining todos in order (202)',
          successStatus: 202,
          description: '04: runs the remaining todos in order, stopping at a failure (202).',
          params: idParams,
          response: started,
        },
      },
      async (request, reply) => {
        const { task } = await runAll(deps, request.params.id);
        return reply.status(202).send(await viewTask(deps, await deps.store.get(task.id)));
      },
    );
    app.post(
      '/api/tasks/:id/baseline',
      {
        schema: {
          tags,
          operationId: 'runBaseline',
          summary: "Run the checks again as the task's baseline (202)",
          successStatus: 202,
          description:
            "04: runs the repositories' checks again on the workspace as it stands before the next todo, as the task's baseline (202; e.g. after fixing the setup).",
          params: idParams,
          response: started,
        },
      },
      async (request, reply) =>
        reply.status(202).send(await viewTask(deps, await runBaseline(deps, request.params.id))),
    );
    app.get(
      '/api/todos/:id',
      {
        schema: {
          tags,
          operationId: 'getTodo',
          summary: 'Read a todo',
          params: idParams,
          response: responses(wire.todo, 404),
        },
      },
      (request) => deps.store.todo(request.params.id),
    );
    app.post(
      '/api/todos/:id/execute',
      {
        schema: {
          tags,
          operationId: 'executeTodo',
          summary: 'Run one todo in its own session (202)',
          successStatus: 202,
          description:
            '04: runs one todo in its own session, strictly in order; a failed one is retried from its before-snapshot (202).',
          params: idParams,
          response: responses(wire.todoWithSession, 400, 404, 409, 422),
        },
      },
      async (request, reply) => reply.status(202).send(await executeTodo(deps, request.params.id)),
    );
    app.post(
      '/api/todos/:id/skip',
      {
        schema: {
          tags,
          operationId: 'skipTodo',
          summary: 'Skip a pending or failed todo',
          params: idParams,
          response: responses(wire.todo, 400, 404, 409, 422),
        },
      },
      async (request) => skipTodo(deps, request.params.id),
    );
    app.get(
      '/api/todos/:id/diff',
      {
        schema: {
          tags,
          operationId: 'getTodoDiff',
          summary: "A todo's changes",
          description: "The todo's changes: before..after, or before..working tree while it runs.",
          params: idParams,
          response: responses(wire.todoDiff, 404),
        },
      },
      async (request) => todoDiff(deps, request.params.id),
    );
  };
}
