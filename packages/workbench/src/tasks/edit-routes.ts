import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../http/index.ts';
import type { TaskDeps } from './deps.ts';
import {
  addTodo,
  editCommitMessage,
  editPlan,
  editTodo,
  planDiff,
  planVersions,
  removeTodo,
  reorderTodos,
} from './edits.ts';
import { viewTask } from './task-service.ts';
import {
  commitMessageBody,
  planBody,
  planDiffQuery,
  todoCreateBody,
  todoOrderBody,
  todoParams,
  todoUpdateBody,
  versionParams,
} from './types.ts';

/**
 * The user's hand edits: the plan (versioned, with diffs), the todo list in TODO_READY, the commit message
 * and MR title/description in REVIEWING. Each is logged in the stage's session as a `user_action` event.
 */
export function editRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['edits'];
    app.put(
      '/api/tasks/:id/plan',
      {
        schema: {
          tags,
          operationId: 'savePlan',
          summary: 'Save plan.md as the user wrote it, a new version',
          description: '02: saves plan.md as the user wrote it, a new version (PLANNING, plan session idle).',
          params: idParams,
          body: planBody,
          response: responses(wire.planSaved, 400, 404, 409),
        },
      },
      async (request) => {
        const { task, version } = await editPlan(deps, request.params.id, request.body.content);
        return { task: await viewTask(deps, task), version };
      },
    );
    app.get(
      '/api/tasks/:id/plan/versions',
      {
        schema: {
          tags,
          operationId: 'listPlanVersions',
          summary: 'Every version of plan.md, oldest first',
          description:
            'Every version of plan.md, oldest first: {version, content, source: ai|user, session_id, created_at}.',
          params: idParams,
          response: responses(wire.planVersionList, 404),
        },
      },
      (request) => planVersions(deps, request.params.id),
    );
    app.get(
      '/api/tasks/:id/plan/versions/:version',
      {
        schema: {
          tags,
          operationId: 'getPlanVersion',
          summary: 'One version of plan.md',
          params: versionParams,
          response: responses(wire.planVersion, 400, 404),
        },
      },
      async (request) => {
        await planVersions(deps, request.params.id);
        return { ...(await deps.store.planVersion(request.params.id, request.params.version)) };
      },
    );
    app.get(
      '/api/tasks/:id/plan/diff',
      {
        schema: {
          tags,
          operationId: 'getPlanDiff',
          summary: 'The diff of plan.md between two versions',
          description:
            'The unified diff of plan.md between two versions (default: the latest and the one before it).',
          params: idParams,
          querystring: planDiffQuery,
          response: responses(wire.planDiff, 400, 404, 409),
        },
      },
      (request) => planDiff(deps, request.params.id, request.query.from, request.query.to),
    );
    app.post(
      '/api/tasks/:id/todos',
      {
        schema: {
          tags,
          operationId: 'addTodo',
          summary: 'Add a todo to the list (201)',
          successStatus: 201,
          description: '03: adds a todo (at position, default the end) while TODO_READY.',
          params: idParams,
          body: todoCreateBody,
          response: responses(wire.todoWithList, 400, 404, 409),
        },
      },
      async (request, reply) => reply.status(201).send(await addTodo(deps, request.params.id, request.body)),
    );
    app.patch(
      '/api/tasks/:id/todos/:todo_id',
      {
        schema: {
          tags,
          operationId: 'updateTodo',
          summary: "Change a todo's title, description or expected output",
          description: "03: changes a todo's title, description or expected output while TODO_READY.",
          params: todoParams,
          body: todoUpdateBody,
          response: responses(wire.todoWithList, 400, 404, 409),
        },
      },
      (request) => editTodo(deps, request.params.id, request.params.todo_id, request.body),
    );
    app.delete(
      '/api/tasks/:id/todos/:todo_id',
      {
        schema: {
          tags,
          operationId: 'deleteTodo',
          summary: 'Remove a todo from the list',
          description: '03: removes a todo while TODO_READY; the later ones move up.',
          params: todoParams,
          response: responses(wire.todoList, 404, 409),
        },
      },
      async (request) => ({ todos: await removeTodo(deps, request.params.id, request.params.todo_id) }),
    );
    app.put(
      '/api/tasks/:id/todos/order',
      {
        schema: {
          tags,
          operationId: 'reorderTodos',
          summary: 'Put the todos in a new order',
          description:
            '03: puts the todos in the order given (every todo id of the task, once) while TODO_READY.',
          params: idParams,
          body: todoOrderBody,
          response: responses(wire.todoList, 400, 404, 409),
        },
      },
      async (request) => ({ todos: await reorderTodos(deps, request.params.id, request.body.todo_ids) }),
    );
    app.put(
      '/api/tasks/:id/commit-message',
      {
        schema: {
          tags,
          operationId: 'saveCommitMessage',
          summary: 'Save the commit message and the merge request title and description as written',
          description:
            '05: the commit message and/or the MR title and description as the user wrote them (REVIEWING, review session idle); null title/description: from the commit message again.',
          params: idParams,
          body: commitMessageBody,
          response: responses(wire.task, 400, 404, 409),
        },
      },
      async (request) => viewTask(deps, await editCommitMessage(deps, request.params.id, request.body)),
    );
  };
}
