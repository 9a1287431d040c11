import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrivileged, responses } from '../http/index.ts';
import type { PreviewService } from './preview-service.ts';

const taskParams = z.object({ id: z.string().min(1).max(200) });
const previewParams = taskParams.extend({ repository: z.string().min(1).max(500) });

/** A task's previews: start, list, log, stop (`/api/tasks/{id}/previews`). */
export function previewRoutes(previews: PreviewService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['previews'];
    app.post(
      '/api/tasks/:id/previews',
      {
        schema: {
          tags,
          operationId: 'startPreview',
          summary: "Start a repository's preview in the task's workspace (202)",
          successStatus: 202,
          description:
            "Starts the repository's preview (its project's `preview` command) in the task's workspace: in the sandbox with the host's network, on a free loopback port given as PORT (HOST=127.0.0.1). 202 with the preview `starting`; it is `running` once its port answers. Its state and output come on the WebSocket's task:{id} channel (`preview`, `preview_log`). It stops with DELETE, the task's delete or the service's shutdown. It runs the repository's code with the network on: from another origin than the workbench's own, 403 PERMISSION_DENIED unless the request carries the API key.",
          params: taskParams,
          body: wire.previewStartSchema,
          response: responses(wire.preview, 400, 403, 404, 409),
        },
      },
      async (request, reply) => {
        requirePrivileged(request, [`previews.${request.body.repository}`]);
        return reply.status(202).send(await previews.start(request.params.id, request.body.repository));
      },
    );
    app.get(
      '/api/tasks/:id/previews',
      {
        schema: {
          tags,
          operationId: 'listPreviews',
          summary: "The task's previews",
          description:
            "The task's previews, the ended ones too (until started again or the task is deleted).",
          params: taskParams,
          response: responses(wire.previewList, 404),
        },
      },
      async (request) => ({ previews: await previews.list(request.params.id) }),
    );
    app.get(
      '/api/tasks/:id/previews/:repository/log',
      {
        schema: {
          tags,
          operationId: 'getPreviewLog',
          summary: "The end of a preview's output",
          description:
            "The end of the preview's output (stdout and stderr as they came, at most 200,000 characters) and the seq of its last chunk: live output after it comes as `preview_log` on task:{id}.",
          params: previewParams,
          response: responses(wire.previewLog, 404),
        },
      },
      async (request) => previews.log(request.params.id, request.params.repository),
    );
    app.delete(
      '/api/tasks/:id/previews/:repository',
      {
        schema: {
          tags,
          operationId: 'stopPreview',
          summary: 'Stop a preview and everything it started',
          description:
            'Stops the preview and everything it started (SIGTERM, then SIGKILL after a grace period); answers it `stopped` once it ended (an ended one as it is).',
          params: previewParams,
          response: responses(wire.preview, 404),
        },
      },
      async (request) => previews.stop(request.params.id, request.params.repository),
    );
  };
}
