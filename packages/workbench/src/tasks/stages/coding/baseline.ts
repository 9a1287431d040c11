import type { ChecksBaseline } from '@keel/protocol/workbench';
import { type CheckResult, runChecks } from '../../../checks/index.ts';
import { restoreSnapshot, snapshot } from '../../../git/index.ts';
import { claim, type TaskDeps } from '../../deps.ts';
import { noteTaskError } from '../../stage-errors.ts';
import type { Task } from '../../types.ts';

// Issue #37: the checks run once on the workspace before a todo changes it. A check that already fails
// there proves nothing about a todo's change, so it neither fails todos nor gets repair turns; a check
// that cannot run at all (an environment problem) is reported on the task at once.

/** The beginning of every environment problem noted on the task (so that only such a note is cleared). */
const taskNote = 'Environment problem:';

/**
 * Takes the task's baseline: every repository's checks on its workspace as it stands before the next todo
 * (untouched before the first; after the done ones, which passed their checks, later). A failed todo's
 * partial changes are set aside for the run, and the workspace is put back as it was found afterwards (the
 * checks' own leftovers too; ignored files, e.g. installed dependencies, stay). The caller holds the task.
 */
export async function takeBaseline(
  deps: TaskDeps,
  taskId: string,
  begun?: ChecksBaseline,
): Promise<ChecksBaseline> {
  const started = begun ?? (await beginBaseline(deps, taskId));
  const task = await deps.store.get(taskId);
  let baseline: ChecksBaseline;
  try {
    baseline = { ...started, status: 'done', results: await checkUntouched(deps, task) };
  } catch (error) {
    baseline = { ...started, status: 'failed', error: (error as Error).message };
  }
  baseline.ended_at = new Date().toISOString();
  await deps.store.update(taskId, { baseline });
  await noteEnvironment(deps, taskId, baselineProblem(task, baseline.results));
  return baseline;
}

/** Shows the baseline running on the task (the previous one's results are gone: they may be stale). */
async function beginBaseline(deps: TaskDeps, taskId: string): Promise<ChecksBaseline> {
  const started: ChecksBaseline = {
    status: 'running',
    results: [],
    error: null,
    started_at: new Date().toISOString(),
    ended_at: null,
  };
  await deps.store.update(taskId, { baseline: started });
  return started;
}

async function checkUntouched(deps: TaskDeps, task: Task): Promise<CheckResult[]> {
  const project = await deps.projects.get(task.project_id);
  const pending = (await deps.store.todos(task.id)).find(
    (todo) => todo.status !== 'done' && todo.status !== 'skipped',
  );
  // A failed todo's changes stay in the workspace until it is retried or skipped: not the baseline's.
  const setAside = pending?.status === 'failed' ? pending.before : null;
  const results: CheckResult[] = [];
  for (const workspace of task.workspaces) {
    const checks = project.repositories.find((each) => each.name === workspace.repository)?.checks ?? [];
    if (checks.length === 0) continue;
    const found = await snapshot(workspace.dir, 'before the baseline');
    try {
      const before = setAside?.[workspace.repository];
      if (before) await restoreSnapshot(workspace.dir, before);
      results.push(...(await runChecks(deps.commands, workspace.repository, workspace.dir, checks)));
    } finally {
      await restoreSnapshot(workspace.dir, found);
    }
  }
  return results;
}

/**
 * The baseline a todo is compared with: the task's, taken now when it has none, when it did not end (a
 * crash, a failed snapshot), or while it holds an environment problem (the user may have fixed it since).
 */
export async function baselineFor(deps: TaskDeps, task: Task): Promise<ChecksBaseline> {
  const current = (await deps.store.get(task.id)).baseline;
  if (current?.status === 'done' && !current.results.some((result) => result.outcome === 'environment'))
    return current;
  return await takeBaseline(deps, task.id);
}

/** `results` with how each check ended in `baseline` (same repository, name and command; null: not there). */
export function againstBaseline(results: CheckResult[], baseline: ChecksBaseline | null): CheckResult[] {
  return results.map((result) => {
    const before = baseline?.results.find(
      (each) =>
        each.repository === result.repository && each.name === result.name && each.command === result.command,
    );
    return { ...result, baseline: before?.outcome ?? null };
  });
}

/** A failure the change is answerable for: the check did not already fail before it. */
export function changeBroke(result: CheckResult): boolean {
  return result.outcome === 'failed' && result.baseline !== 'failed' && result.baseline !== 'environment';
}

/** The checks that could not run, each with what is missing. */
export function problemList(results: readonly CheckResult[]): string {
  return results
    .filter((result) => result.outcome === 'environment')
    .map((result) => `${result.repository}: ${result.name} (\`${result.command}\`): ${result.reason}`)
    .join('; ');
}

/** What the user does about an environment problem. */
const whatToDo =
  "Install what is missing (the repository's setup: its dependencies; with the project's run_setup on, POST /api/tasks/{id}/setup runs it in this task) or edit the check in the project's settings (PUT /api/projects/{id} with checks)";

/** A todo's error when its checks could not run, after its turn or already in the baseline before it. */
export function todoEnvironmentError(results: readonly CheckResult[], before: boolean): string {
  const when = before
    ? 'the checks cannot run in the workspace, before any change of this todo (its turn was not started)'
    : 'checks could not run after the change';
  return `${taskNote} ${when}: ${problemList(results)}. This is not the change's fault, so no repair turn was spent on it. ${whatToDo}, then execute the todo again.`;
}

/** The task's note of a baseline's environment problems, or null when it has none. */
function baselineProblem(task: Task, results: readonly CheckResult[]): string | null {
  if (!results.some((result) => result.outcome === 'environment')) return null;
  return `${taskNote} the checks cannot run in the workspace (found by the baseline, before any change): ${problemList(results)}. ${whatToDo}, then run the baseline again with POST /api/tasks/${task.id}/baseline (executing a todo takes it again too).`;
}

/** Notes an environment problem on the task, or clears such a note (and no other error) with null. */
export async function noteEnvironment(deps: TaskDeps, taskId: string, problem: string | null): Promise<void> {
  if (problem === null) {
    const current = await deps.store.get(taskId).catch(() => null);
    if (!current?.error?.startsWith(taskNote)) return;
  }
  await noteTaskError(deps, taskId, problem);
}

/** `POST /api/tasks/{id}/baseline`: takes the baseline again in the background (202), holding the task. */
export async function runBaseline(deps: TaskDeps, taskId: string): Promise<Task> {
  await deps.store.check(taskId, 'baseline');
  const release = claim(deps, taskId, 'taking the checks baseline');
  let begun: ChecksBaseline;
  try {
    begun = await beginBaseline(deps, taskId);
  } catch (error) {
    release();
    throw error;
  }
  deps.background.run(async () => {
    try {
      await takeBaseline(deps, taskId, begun);
    } finally {
      release();
    }
  });
  return await deps.store.get(taskId);
}
