import type { SessionRecord } from '../../../sessions/index.ts';
import { createTaskSession, stageSession, type TaskDeps, taskRunner } from '../../deps.ts';
import type { Task } from '../../types.ts';

/**
 * The task's plan session, created when missing. `forEdit`: for logging a hand edit, which needs no
 * model (a turn checks it when it starts).
 */
export function planSession(deps: TaskDeps, task: Task, forEdit = false): SessionRecord {
  return stageSession(deps, task.id, 'plan', () => {
    const config = taskRunner(deps, task, deps.projects.get(task.project_id));
    return createTaskSession(deps, task, 'plan', config, { model: !forEdit });
  });
}
