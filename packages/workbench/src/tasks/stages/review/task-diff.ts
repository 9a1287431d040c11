import * as wire from '@keel/protocol/workbench';
import { WorkbenchError } from '../../../errors.ts';
import { diff } from '../../../git/index.ts';
import { offLoop } from '../../../off-loop/index.ts';
import type { TaskDeps } from '../../deps.ts';
import type { Task } from '../../types.ts';

/** The task, once it has workspaces to diff and no delete has begun. */
export async function diffableTask(deps: TaskDeps, taskId: string): Promise<Task> {
  const task = await deps.store.get(taskId);
  if (task.workspaces.length === 0) {
    throw new WorkbenchError(
      'NO_WORKSPACE',
      'The task has no workspaces yet: initialize it first (POST /api/tasks/{id}/init).',
    );
  }
  deps.busy.assertOpen(taskId);
  return task;
}

/** Every repository's changes since the task branch started: base commit..working tree. */
export async function taskDiff(deps: TaskDeps, taskId: string) {
  const task = await diffableTask(deps, taskId);
  const repositories = [];
  for (const workspace of task.workspaces) {
    const changes = await diff(workspace.dir, workspace.base_commit).catch((error: unknown) => {
      // A delete that began meanwhile removes the workspaces under git's feet: say so, not a git failure.
      deps.busy.assertOpen(taskId);
      throw error;
    });
    repositories.push({ repository: workspace.repository, base_commit: workspace.base_commit, ...changes });
  }
  return {
    task_id: task.id,
    repositories,
    additions: repositories.reduce((sum, each) => sum + each.additions, 0),
    deletions: repositories.reduce((sum, each) => sum + each.deletions, 0),
  };
}

/**
 * `GET /api/tasks/{id}/diff`'s answer as JSON text, the same bytes the route's schema check and serialiser
 * would write: each repository's part is checked against `RepositoryDiff` and serialised in the worker
 * thread, where its diff is computed, so a 5,000-file change never holds the service's event loop with its
 * check, its copy between threads or its serialisation (issue #44). Only the envelope is written here.
 */
export async function taskDiffJson(deps: TaskDeps, taskId: string): Promise<string> {
  const task = await diffableTask(deps, taskId);
  const parts: string[] = [];
  let additions = 0;
  let deletions = 0;
  for (const workspace of task.workspaces) {
    const part = await repositoryDiffJson(workspace.repository, workspace.dir, workspace.base_commit).catch(
      (error: unknown) => {
        // A delete that began meanwhile removes the workspaces under git's feet: say so, not a git failure.
        deps.busy.assertOpen(taskId);
        throw error;
      },
    );
    parts.push(part.json);
    additions += part.additions;
    deletions += part.deletions;
  }
  // In `TaskDiff`'s key order, as its serialiser writes it.
  return `{"task_id":${JSON.stringify(task.id)},"repositories":[${parts.join(',')}],"additions":${additions},"deletions":${deletions}}`;
}

/** One repository's `RepositoryDiff`, checked and serialised, with its counts for the envelope. */
export const repositoryDiffJson = offLoop(import.meta.url, 'repositoryDiffJsonHere', repositoryDiffJsonHere);

/** `repositoryDiffJson` on the calling thread (the worker's). */
export async function repositoryDiffJsonHere(
  repository: string,
  dir: string,
  baseCommit: string,
): Promise<{ json: string; additions: number; deletions: number }> {
  const changes = await diff(dir, baseCommit);
  const checked = wire.repositoryDiff.parse({ repository, base_commit: baseCommit, ...changes });
  return { json: JSON.stringify(checked), additions: checked.additions, deletions: checked.deletions };
}
