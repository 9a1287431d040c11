import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WorkbenchError } from '../errors.ts';
import { filePatch } from '../git/index.ts';
import { idParams, responses } from '../http/index.ts';
import type { SessionRecord } from '../sessions/index.ts';
import { executeTodo, runAll, skipTodo, startCoding, todoDiff } from './coding-stage.ts';
import type { TaskDeps } from './deps.ts';
import { confirmInit, startInit } from './init-stage.ts';
import { lockPlan, startPlan, startTodos } from './plan-stage.ts';
import { startCommitMessage, submitMergeRequest, taskDiff } from './review-stage.ts';
import { moves, stages, taskStates } from './states.ts';
import { viewTask } from './task-service.ts';
import { messageBody, submitBody } from './types.ts';

/** The five stages' actions. Work that takes time answers 202 at once; its sessions show the progress. */
export function flowRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['flow'];
    const started = <Body extends z.ZodType>(body: Body) => responses(body, 400, 404, 409, 422);
    const withSession = ({
      task,
      session,
    }: {
      task: Parameters<typeof viewTask>[1];
      session: SessionRecord;
    }) => ({
      task: viewTask(deps, deps.store.get(task.id)),
      session,
    });

    app.get(
      '/api/flow',
      {
        schema: {
          tags,
          description:
            'The flow as data: the five stages with their states, every task state, and the table of moves (action, by, from, to, trigger). Clients draw their stepper from it.',
          response: responses(wire.flow),
        },
      },
      async () => ({
        stages: stages.map((stage) => ({ ...stage, states: [...stage.states] })),
        states: [...taskStates],
        moves: moves.map((move) => ({ ...move, from: [...move.from] })),
      }),
    );
    app.post(
      '/api/tasks/:id/init',
      {
        schema: {
          tags,
          description: '01: clone, sync skills, copy knowledge (202). Again: retries the steps not done.',
          params: idParams,
          response: started(wire.task),
        },
      },
      async (request, reply) => reply.status(202).send(viewTask(deps, startInit(deps, request.params.id))),
    );
    app.post(
      '/api/tasks/:id/confirm-init',
      {
        schema: {
          tags,
          description: '01 → 02: the user confirms the initialization.',
          params: idParams,
          response: started(wire.task),
        },
      },
      async (request) => viewTask(deps, confirmInit(deps, request.params.id)),
    );
    app.post(
      '/api/tasks/:id/plan',
      {
        schema: {
          tags,
          description: '02: drafts plan.md, or refines it with message (same session) (202).',
          params: idParams,
          body: messageBody.nullish(),
          response: started(wire.taskWithSession),
        },
      },
      async (request, reply) =>
        reply.status(202).send(withSession(startPlan(deps, request.params.id, request.body?.message))),
    );
    app.post(
      '/api/tasks/:id/lock-plan',
      {
        schema: {
          tags,
          description: '02 → 03: locks the plan and starts todo generation in the plan session (202).',
          params: idParams,
          response: started(wire.taskWithSession),
        },
      },
      async (request, reply) => reply.status(202).send(withSession(lockPlan(deps, request.params.id))),
    );
    app.post(
      '/api/tasks/:id/todo',
      {
        schema: {
          tags,
          description: '03: generates the todo list again, or adjusts it by message (202).',
          params: idParams,
          body: messageBody.nullish(),
          response: started(wire.taskWithSession),
        },
      },
      async (request, reply) =>
        reply.status(202).send(withSession(startTodos(deps, request.params.id, request.body?.message))),
    );
    app.post(
      '/api/tasks/:id/start-coding',
      { schema: { tags, description: '03 → 04.', params: idParams, response: started(wire.task) } },
      async (request) => viewTask(deps, startCoding(deps, request.params.id)),
    );
    app.post(
      '/api/tasks/:id/run-all',
      {
        schema: {
          tags,
          description: '04: runs the remaining todos in order, stopping at a failure (202).',
          params: idParams,
          response: started(wire.task),
        },
      },
      async (request, reply) => {
        const { task } = runAll(deps, request.params.id);
        return reply.status(202).send(viewTask(deps, deps.store.get(task.id)));
      },
    );
    app.get(
      '/api/tasks/:id/diff',
      {
        schema: {
          tags,
          description: '05: every repository, base commit..working tree: files and patch.',
          params: idParams,
          response: started(wire.taskDiff),
        },
      },
      async (request) => taskDiff(deps, request.params.id),
    );
    app.get(
      '/api/tasks/:id/diff/file',
      {
        schema: {
          tags,
          description:
            "05: one file's patch, base commit..working tree as in the task diff (for a file past its 1 MiB cut); path must be one of the diff's files.",
          params: idParams,
          querystring: fileDiffQuery,
          response: responses(wire.fileDiff, 400, 404, 409),
        },
      },
      async (request) => {
        const { repository, path } = request.query;
        const task = deps.store.get(request.params.id);
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
    app.post(
      '/api/tasks/:id/commit-message',
      {
        schema: {
          tags,
          description: '05: the AI commit message, adjustable by message in the same session (202).',
          params: idParams,
          body: messageBody.nullish(),
          response: started(wire.taskWithSession),
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(withSession(await startCommitMessage(deps, request.params.id, request.body?.message))),
    );
    app.post(
      '/api/tasks/:id/submit-mr',
      {
        schema: {
          tags,
          description: '05: commit, push, open the MR/PR per changed repository; then DONE with results.',
          params: idParams,
          body: submitBody.nullish(),
          response: responses(wire.task, 400, 404, 409, 422, 502),
        },
      },
      async (request) =>
        viewTask(deps, await submitMergeRequest(deps, request.params.id, request.body ?? {})),
    );
    app.get(
      '/api/tasks/:id/todos',
      { schema: { tags, params: idParams, response: responses(wire.todoList, 404) } },
      async (request) => {
        deps.store.get(request.params.id);
        return { todos: deps.store.todos(request.params.id) };
      },
    );
    app.get(
      '/api/todos/:id',
      { schema: { tags, params: idParams, response: responses(wire.todo, 404) } },
      async (request) => deps.store.todo(request.params.id),
    );
    app.post(
      '/api/todos/:id/execute',
      {
        schema: {
          tags,
          description:
            '04: runs one todo in its own session, strictly in order; a failed one is retried from its before-snapshot (202).',
          params: idParams,
          response: started(wire.todoWithSession),
        },
      },
      async (request, reply) => reply.status(202).send(executeTodo(deps, request.params.id)),
    );
    app.post(
      '/api/todos/:id/skip',
      { schema: { tags, params: idParams, response: started(wire.todo) } },
      async (request) => skipTodo(deps, request.params.id),
    );
    app.get(
      '/api/todos/:id/diff',
      {
        schema: {
          tags,
          description: "The todo's changes: before..after, or before..working tree while it runs.",
          params: idParams,
          response: responses(wire.todoDiff, 404),
        },
      },
      async (request) => todoDiff(deps, request.params.id),
    );
  };
}

const fileDiffQuery = z.strictObject({
  repository: z.string().min(1).max(500),
  path: z.string().min(1).max(4096),
});
