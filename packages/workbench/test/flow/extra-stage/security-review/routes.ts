import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, responses } from '../../../../src/http/index.ts';
import { messageTurnRoute, moveTask, type TaskDeps, viewTask } from '../../../../src/tasks/index.ts';
import { startScan } from './security-stage.ts';

/** The stage's endpoints: scan again (optionally told what to look at), or go on despite the findings. */
export function securityRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    messageTurnRoute(
      app,
      deps,
      {
        path: '/api/tasks/:id/security-scan',
        operationId: 'securityScan',
        summary: 'Scan the change for security problems again (202)',
        description: 'Security review: a read-only scan of the change; a clean one goes on to review.',
      },
      startScan,
    );
    app.post(
      '/api/tasks/:id/security-accept',
      {
        schema: {
          tags: ['flow'],
          operationId: 'acceptSecurity',
          summary: 'Go on to the next stage despite what the scan found',
          params: idParams,
          response: responses(wire.task, 404, 409),
        },
      },
      async (request) => viewTask(deps, await moveTask(deps, request.params.id, 'accept_security')),
    );
  };
}
