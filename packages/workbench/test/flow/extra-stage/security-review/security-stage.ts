import { join } from 'node:path';
import type { RunnerOutcome } from '../../../../src/runners/index.ts';
import type { SessionRecord } from '../../../../src/sessions/index.ts';
import {
  createTaskSession,
  moveTask,
  reservedTurn,
  reserveSession,
  stageSession,
  startAutomatically,
  type Task,
  type TaskDeps,
  taskOfSucceededTurn,
  taskRunner,
  writeTaskFile,
} from '../../../../src/tasks/index.ts';

/** What the stage's turn answers when it finds nothing (anything else is a list of problems). */
export const allClear = 'No security problems found.';

export function securityPrompt(task: Task, message?: string): string {
  const note = message ? `\n\nAlso: ${message}` : '';
  return `Check this change for security problems before it is reviewed: ${task.description}\nRead the repositories on the task branch. List each problem with its file, or answer exactly "${allClear}"${note}`;
}

/** The stage's session: one per task (kept under the stage's key), read-only. */
async function securitySession(deps: TaskDeps, task: Task): Promise<SessionRecord> {
  return await stageSession(deps, task.id, 'security', async () => {
    const config = await taskRunner(deps, task, await deps.projects.get(task.project_id));
    return await createTaskSession(deps, task, 'reviewer', config, { readOnly: true });
  });
}

/** Starts a scan in the stage's session (202; the turn runs in the background). */
export async function startScan(deps: TaskDeps, taskId: string, message: string | undefined) {
  const task = await deps.store.check(taskId, 'security_scan');
  const session = await securitySession(deps, task);
  const reservation = await reserveSession(deps, taskId, session.id, 'scanning for security problems');
  const step = { what: 'The security scan', retry: `POST /api/tasks/${taskId}/security-scan` };
  deps.background.run(() =>
    reservedTurn(deps, taskId, reservation, step, () => ({
      prompt: securityPrompt(task, message),
      shownAs: message ?? 'Check the change for security problems.',
    })),
  );
  return { task: await deps.store.get(taskId), session: await deps.sessions.get(session.id) };
}

/** On entering the stage (coding finished): the scan starts by itself. */
export async function scanOnEntry(deps: TaskDeps, task: Task): Promise<void> {
  await startAutomatically(
    deps,
    task.id,
    { what: 'The security scan', retry: `POST /api/tasks/${task.id}/security-scan` },
    () => startScan(deps, task.id, undefined),
  );
}

/**
 * After a turn of the stage's session: the answer is kept as security-review.md, and a clean one hands the
 * task on to the next stage (the flow starts what that stage starts).
 */
export async function scanEnded(deps: TaskDeps, session: SessionRecord, outcome: RunnerOutcome) {
  const task = await taskOfSucceededTurn(deps, session, outcome);
  if (task?.state !== 'SECURITY_REVIEW') return;
  // The reviewer of review is a session of the same kind: only this stage's session is read here.
  if ((await deps.store.sessionOf(task.id, 'security')) !== session.id) return;
  const taskDir = deps.paths.taskDir(task.id);
  writeTaskFile(taskDir, join(taskDir, 'security-review.md'), `${outcome.output.trim()}\n`);
  if (outcome.output.trim() === allClear) await moveTask(deps, task.id, 'security_passed');
}
