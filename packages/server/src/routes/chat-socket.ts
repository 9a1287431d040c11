import { chatRunData } from '@keel/protocol/runtime';
import {
  KeelError,
  type Project,
  type ProjectChatMessage,
  type Runtime,
  type Task,
  toErrorObject,
} from '@keel/runtime';
import { invalidFields } from '@keel/runtime/internal';
import { admitSocket } from '@keel/service';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { RuntimePool } from '../runtime-pool.ts';
import { Connection, cursorOf, type WebSocketOptions } from './websocket.ts';

/** Close code after the `error` message for a project or task that does not exist. */
export const notFoundClose = 4004;

/** A chat turn's `run.data` (`chatRunData`): the workdir and session are the project's or task's. */
function chatMessage(data: Record<string, unknown>): ProjectChatMessage {
  const parsed = chatRunData.safeParse(data);
  if (parsed.success) return parsed.data as ProjectChatMessage;
  throw invalidFields(
    parsed.error.issues.map((issue) => ({
      field: `data.${issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '')}`,
      message:
        issue.code === 'unrecognized_keys'
          ? "not taken here: a chat runs in the project's (or task's) workdir and session"
          : issue.message,
    })),
  );
}

/** What a chat socket talks about, once looked up. */
interface ChatTarget {
  runtime: Runtime;
  project: Project;
  task?: Task;
}

/**
 * `WS /ws/chat/{project_id}` and `WS /ws/chat/task/{task_id}` (spec section 4, "Web API"): a chat in the
 * project's or the task's session and workdir, speaking `/ws`'s messages (`run`, `cancel`, `user_input`,
 * `submit_interaction`, `ping`) and answered with the same events, projected from the run's canonical
 * events (`start`, `text_delta`, …, `done`, each with its `seq`). The server first sends `ready`; a run of
 * the session in progress is then followed (`resuming`), from `?after=<seq>` if given. A task's branch is
 * checked out before each of its turns. Auth as on `/ws`: 4001 without a valid token.
 */
export function registerChatSockets(
  app: FastifyInstance,
  pool: RuntimePool,
  options: WebSocketOptions,
): void {
  app.get('/ws/chat/:project_id', { websocket: true }, (socket, request) => {
    const { project_id: id } = request.params as { project_id: string };
    openChat(socket, request, pool, options, async () =>
      pool.find(async (runtime) => ({ runtime, project: await runtime.projects.get(id) })),
    );
  });

  app.get('/ws/chat/task/:task_id', { websocket: true }, (socket, request) => {
    const { task_id: id } = request.params as { task_id: string };
    openChat(socket, request, pool, options, async () =>
      pool.find(async (runtime) => {
        const task = await runtime.tasks.get(id);
        return { runtime, task, project: await runtime.tasks.project(task) };
      }),
    );
  });
}

function openChat(
  socket: WebSocket,
  request: FastifyRequest,
  pool: RuntimePool,
  options: WebSocketOptions,
  lookUp: () => Promise<ChatTarget>,
): void {
  if (!admitSocket(socket, request, options.authorized)) return;
  const target = lookUp();
  // Listening starts now, before the lookup ends, so no message sent right after opening is lost.
  const connection = new Connection(socket, pool.for(), pool, async (data) => {
    const { runtime, project, task } = await target;
    const message = chatMessage(data);
    const run = task
      ? await runtime.tasks.chat(task.id, message)
      : await runtime.projects.chat(project.id, message);
    return { id: run.id, runtime };
  });
  connection.listen();
  target.then(
    async ({ runtime, project, task }) => {
      const sessionId = task ? task.session_id : project.session_id;
      connection.send({
        type: 'ready',
        project_id: project.id,
        ...(task ? { task_id: task.id, branch_name: task.branch_name } : {}),
        session_id: sessionId,
        workdir: project.workdir,
      });
      const after = cursorOf((request.query as { after?: unknown }).after);
      if (sessionId) await connection.resume(sessionId, after, false, runtime);
    },
    (error: unknown) => {
      connection.send({ type: 'error', error: toErrorObject(error) });
      const missing = KeelError.is(error) && error.code.endsWith('_NOT_FOUND');
      socket.close(missing ? notFoundClose : 1011, missing ? 'Not found' : 'Server error');
    },
  );
}
