import type { SessionRecord } from '../../sessions/index.ts';
import type { TaskDeps } from '../deps.ts';
import { viewTask } from '../task-service.ts';
import type { Task } from '../types.ts';

/** The OpenAPI tags of the stages' endpoints. */
export const flowTags = ['flow'];

/** Work that takes time answers 202 with the task (as it is now) and the session that shows the progress. */
export async function withSession(deps: TaskDeps, { task, session }: { task: Task; session: SessionRecord }) {
  return { task: await viewTask(deps, await deps.store.get(task.id)), session };
}
