import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../http/index.ts';
import type { SessionRecord } from '../../sessions/index.ts';
import type { TaskDeps } from '../deps.ts';
import { viewTask } from '../task-service.ts';
import { messageBody, type Task } from '../types.ts';

/** The OpenAPI tags of the stages' endpoints. */
export const flowTags = ['flow'];

/** Work that takes time answers 202 with the task (as it is now) and the session that shows the progress. */
export async function withSession(deps: TaskDeps, { task, session }: { task: Task; session: SessionRecord }) {
  return { task: await viewTask(deps, await deps.store.get(task.id)), session };
}

type FlowApp = Parameters<FastifyPluginAsyncZod>[0];

/** A route's path (with `:id`) and what the OpenAPI document says of it. */
export interface TurnRoute {
  path: string;
  operationId: string;
  summary: string;
  description: string;
}

/**
 * `POST path` (with `:id`) starting a turn of a stage's session, with an optional `message` that adjusts
 * what the turn writes (the plan, the todo list, the commit message): 202 with the task and the session.
 */
export function messageTurnRoute(
  app: FlowApp,
  deps: TaskDeps,
  { path, ...documented }: TurnRoute,
  start: (
    deps: TaskDeps,
    taskId: string,
    message: string | undefined,
  ) => Promise<{ task: Task; session: SessionRecord }>,
): void {
  app.post(
    path,
    {
      schema: {
        tags: flowTags,
        ...documented,
        successStatus: 202,
        params: idParams,
        body: messageBody.nullish(),
        response: responses(wire.taskWithSession, 400, 404, 409, 422),
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await withSession(deps, await start(deps, request.params.id, request.body?.message))),
  );
}
