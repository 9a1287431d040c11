import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WorkbenchError } from '../errors.ts';
import { errorSchema, idParams, noContent, responses } from '../http/index.ts';
import type { TaskDeps } from './deps.ts';
import { cancelTask, createTask, deleteTask, reopenTask, updateTask, viewTask } from './task-service.ts';
import { taskCreateSchema, taskListQuery, taskUpdateSchema } from './types.ts';

/** Tasks CRUD on `/api/tasks` (`?project_id=`), cancel and re-open. */
export function taskRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['tasks'];
    app.get(
      '/api/tasks',
      {
        schema: {
          tags,
          operationId: 'listTasks',
          summary: 'The tasks, of one project with `project_id`',
          querystring: taskListQuery,
          response: responses(wire.taskList, 400),
        },
      },
      async (request) => ({
        tasks: await Promise.all(
          (await deps.store.list(request.query.project_id)).map((task) => viewTask(deps, task)),
        ),
      }),
    );
    app.post(
      '/api/tasks',
      {
        schema: {
          tags,
          operationId: 'createTask',
          summary: 'Create a task; its initialization starts (201)',
          successStatus: 201,
          description:
            'Creates a task (state CREATED). Branch default: keel/<slug>-<short id>, checked by git ref rules.',
          body: taskCreateSchema,
          response: responses(wire.task, 400, 404, 422),
        },
      },
      async (request, reply) =>
        reply.status(201).send(await viewTask(deps, await createTask(deps, request.body))),
    );
    app.get(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          operationId: 'getTask',
          summary: 'Read a task with its plan, todos, sessions and allowed actions',
          params: idParams,
          response: responses(wire.task, 404),
        },
      },
      async (request) => viewTask(deps, await deps.store.get(request.params.id)),
    );
    app.get(
      '/api/tasks/:id/images/:index',
      {
        schema: {
          tags,
          operationId: 'getTaskImage',
          summary: "One of the task's images, as its bytes",
          description:
            "One of the task's images by its place in `images` (from 0), as its bytes with its media type: lists and views carry only each image's info. Sent with a sandboxing Content-Security-Policy and nosniff; an SVG only as a download.",
          params: imageParams,
          response: {
            // Not JSON: the bytes as uploaded (a Buffer goes out past any serializer; this only documents it).
            200: {
              description: 'The image bytes, with the media type it was uploaded with',
              content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } },
            },
            404: errorSchema,
          },
        },
      },
      async (request, reply) => {
        const task = await deps.store.get(request.params.id);
        const image = task.images[request.params.index];
        if (!image) {
          throw new WorkbenchError('NOT_FOUND', `The task has no image ${request.params.index}.`, {
            index: request.params.index,
            images: task.images.length,
          });
        }
        // Uploaded by whoever made the task: never run as a page of this origin (an SVG can hold script).
        reply
          .type(image.media_type)
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, max-age=3600');
        if (image.media_type.includes('svg')) {
          reply.header(
            'content-disposition',
            `attachment; filename="${safeName(image.filename ?? 'image.svg')}"`,
          );
        }
        return reply.send(Buffer.from(image.data, 'base64') as never);
      },
    );
    app.put(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          operationId: 'updateTask',
          summary: "Change a task's input fields",
          description:
            'Changes the input fields (until planning ends). A state field is refused with 409 INVALID_STATE.',
          params: idParams,
          body: taskUpdateSchema,
          response: responses(wire.task, 400, 404, 409, 422),
        },
      },
      async (request) => viewTask(deps, await updateTask(deps, request.params.id, request.body)),
    );
    app.delete(
      '/api/tasks/:id',
      {
        schema: {
          tags,
          operationId: 'deleteTask',
          summary: "Stop a task's work and delete it (204)",
          successStatus: 204,
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
      {
        schema: {
          tags,
          operationId: 'cancelTask',
          summary: 'Cancel a task',
          params: idParams,
          response: responses(wire.task, 404, 409),
        },
      },
      async (request) => viewTask(deps, await cancelTask(deps, request.params.id)),
    );
    app.post(
      '/api/tasks/:id/reopen',
      {
        schema: {
          tags,
          operationId: 'reopenTask',
          summary: 'Reopen a cancelled task in the state it was cancelled from',
          params: idParams,
          response: responses(wire.task, 404, 409),
        },
      },
      async (request) => viewTask(deps, await reopenTask(deps, request.params.id)),
    );
  };
}

const imageParams = z.object({
  id: z.string().min(1).max(200),
  index: z.coerce.number().int().min(0).max(100),
});

/** A file name for a header: printable ASCII without quotes or backslashes. */
function safeName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}
