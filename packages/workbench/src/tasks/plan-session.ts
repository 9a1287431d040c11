import type { SessionRecord } from '../sessions/index.ts';
import { createTaskSession, stageSession, type TaskDeps, taskRunner } from './deps.ts';
import type { Task } from './types.ts';

/**
 * The task's plan session, created when missing: ONE runner conversation where 02 drafts and refines the
 * plan and 03 breaks it into todos (kept under 02's key). Here, not in either stage, because both use it.
 * `forEdit`: for logging a hand edit, which needs no model (a turn checks it when it starts).
 */
export async function planSession(deps: TaskDeps, task: Task, forEdit = false): Promise<SessionRecord> {
  return await stageSession(deps, task.id, 'plan', async () => {
    const config = await taskRunner(deps, task, await deps.projects.get(task.project_id));
    return await createTaskSession(deps, task, 'plan', config, { model: !forEdit });
  });
}
