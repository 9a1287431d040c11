import type { ChecksBaseline } from '@keel/protocol/workbench';
import { type CheckResult, runChecks } from '../../../checks/index.ts';
import { diff } from '../../../git/index.ts';
import type { TaskDeps } from '../../deps.ts';
import type { Task } from '../../types.ts';
import { againstBaseline } from './baseline.ts';

/**
 * The checks of the repositories the todo changed (compared with its before-snapshot), run in their
 * workspaces, each with how it ended in `baseline`; null when none ran (no repository changed, or none has
 * checks).
 */
export async function checkTodo(
  deps: TaskDeps,
  task: Task,
  before: Record<string, string>,
  baseline: ChecksBaseline | null,
): Promise<CheckResult[] | null> {
  const project = await deps.projects.get(task.project_id);
  const results: CheckResult[] = [];
  for (const workspace of task.workspaces) {
    const checks = project.repositories.find((each) => each.name === workspace.repository)?.checks ?? [];
    const from = before[workspace.repository];
    if (checks.length === 0 || !from) continue;
    const changed = await diff(workspace.dir, from, undefined, { maxPatchBytes: 1 });
    if (changed.files.length === 0) continue;
    results.push(...(await runChecks(deps.commands, workspace.repository, workspace.dir, checks)));
  }
  return results.length > 0 ? againstBaseline(results, baseline) : null;
}

/** A todo's error when the checks its change broke still fail: which, and where the output is. */
export function checksFailed(failing: readonly CheckResult[]): string {
  const which = failing
    .map(
      (result) =>
        `${result.repository}: ${result.name} (\`${result.command}\`, ${result.exit_code === null ? 'did not finish' : `exit code ${result.exit_code}`})`,
    )
    .join('; ');
  return `Checks failed after the repair turns: ${which}. Their output is in the todo's checks; execute it again to retry, or skip it.`;
}

/** A run of the checks in one line, for the session's log: "test failed, lint passed". */
export function checksSummary(results: readonly CheckResult[]): string {
  const words = { passed: 'passed', failed: 'failed', environment: 'could not run' } as const;
  return results.map((result) => `${result.name} ${words[result.outcome]}`).join(', ');
}
