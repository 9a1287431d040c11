import { WorkbenchError } from '../../../errors.ts';
import { claim, type TaskDeps } from '../../deps.ts';
import { afterSetup } from '../../hand-off.ts';
import { noteTaskError } from '../../stage-errors.ts';
import type { InitStep, Task } from '../../types.ts';
import { runStep } from './init-stage.ts';
import { runSetupStep } from './setup-step.ts';

/** The beginning of the task's note when setup failed (so that only such a note is cleared by a success). */
const setupNote = 'Setup failed:';

/**
 * `POST /api/tasks/{id}/setup`: runs every repository's setup step again in the task's workspaces (202, in
 * the background, holding the task), once init is done and until the task is done: after the user turned
 * `run_setup` on, edited a setup command, or was told of an environment problem. Each step is shown on the
 * task's init steps and logged in its init session, as during init. A successful setup is told to the stage
 * the task is in (`onSetup`: in coding it takes the checks' baseline again, so an environment problem it
 * fixed is cleared at once).
 */
export async function runSetupAgain(deps: TaskDeps, taskId: string): Promise<Task> {
  const task = await deps.store.check(taskId, 'setup');
  if (task.init.status !== 'done') {
    throw new WorkbenchError(
      'INVALID_STATE',
      'The task is not initialized yet: POST /api/tasks/{id}/init runs the setup with the other init steps.',
      { state: task.state, init: task.init.status },
    );
  }
  const project = await deps.projects.get(task.project_id);
  const names = project.repositories.flatMap((repository) =>
    repository.setup ? [`setup:${repository.name}`] : [],
  );
  if (names.length === 0) {
    throw new WorkbenchError(
      'NO_SETUP_COMMAND',
      `No repository of project '${project.id}' has a setup command: set one with PUT /api/projects/${project.id} {"setup": {"<repository>": {"command": "…"}}}.`,
      { project_id: project.id },
    );
  }
  const sessionId = await deps.store.sessionOf(taskId, 'init');
  if (sessionId === null) throw new Error(`task ${taskId} has no init session`);
  const release = claim(deps, taskId, 'running the setup');
  try {
    await deps.store.change(taskId, (current) => ({
      init: { ...current.init, steps: withSetupSteps(current.init.steps, names) },
    }));
    await deps.runner.setStatus(sessionId, 'running');
  } catch (error) {
    release();
    throw error;
  }
  deps.background.run(async () => {
    try {
      await setupAll(deps, taskId, sessionId, names);
    } finally {
      release();
    }
  });
  return await deps.store.get(taskId);
}

async function setupAll(deps: TaskDeps, taskId: string, sessionId: string, names: string[]): Promise<void> {
  const failed: string[] = [];
  for (const name of names) {
    if (deps.busy.closing(taskId)) return;
    const repository = name.slice('setup:'.length);
    const ok = await runStep(deps, taskId, sessionId, name, () => runSetupStep(deps, taskId, repository));
    if (!ok) failed.push(name);
  }
  await deps.runner.setStatus(
    sessionId,
    failed.length ? 'failed' : 'succeeded',
    failed.length ? { code: 'INIT_FAILED', message: `steps failed: ${failed.join(', ')}` } : null,
  );
  if (failed.length > 0) {
    const note = `${setupNote} ${failed.join(', ')} (each step's error and output are on the task's init steps). Fix the repository or the project's setup command, then run it again with POST /api/tasks/${taskId}/setup.`;
    await noteTaskError(deps, taskId, note);
    return;
  }
  const task = await deps.store.get(taskId);
  if (task.error?.startsWith(setupNote)) await noteTaskError(deps, taskId, null);
  await afterSetup(deps, taskId);
}

/** The init steps with a step for each of `names` (new ones after the clone steps), each pending. */
function withSetupSteps(steps: readonly InitStep[], names: readonly string[]): InitStep[] {
  const pending = (name: string): InitStep => ({ name, status: 'pending' });
  const kept = steps.map((step) => (names.includes(step.name) ? pending(step.name) : step));
  const missing = names.filter((name) => !steps.some((step) => step.name === name));
  const after = kept.findLastIndex(
    (step) => step.name.startsWith('clone:') || step.name.startsWith('setup:'),
  );
  return [...kept.slice(0, after + 1), ...missing.map(pending), ...kept.slice(after + 1)];
}
