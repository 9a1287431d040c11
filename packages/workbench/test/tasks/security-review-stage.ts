// A sixth stage, "Security review" (06 at the end of the registry), defined only for tests: its own state and one action with its
// route. The registry test and the stepper's browser test register it; no file of the workbench names it.
import * as wire from '@keel/protocol/workbench';
import { idParams, responses } from '../../src/http/index.ts';
import type { StageModule, TaskDeps } from '../../src/tasks/index.ts';
import { viewTask } from '../../src/tasks/task-service.ts';

/** A stage of its own state and one action: a security scan of the change, allowed in review or in it. */
export const securityReviewStage: StageModule = {
  key: 'security',
  title: 'Security review',
  states: ['SECURITY_REVIEW'],
  moves: [
    {
      action: 'security_scan',
      by: 'user',
      from: ['REVIEWING', 'SECURITY_REVIEW'],
      to: 'same',
      trigger: 'POST /api/tasks/{id}/security-scan',
    },
  ],
  routes: (deps: TaskDeps) => async (app) => {
    app.post(
      '/api/tasks/:id/security-scan',
      { schema: { tags: ['flow'], params: idParams, response: responses(wire.task, 404, 409) } },
      async (request) => viewTask(deps, await deps.store.check(request.params.id, 'security_scan')),
    );
  },
};
