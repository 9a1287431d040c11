import { join } from 'node:path';
import type { Project } from '../projects/index.ts';
import { type RunnerConfig, resolveRunner } from '../runners/index.ts';
import type { Reservation, SessionKind, SessionRecord } from '../sessions/index.ts';
import { taskInstructions } from './prompts.ts';
import type { TaskDeps } from './stages/stage.ts';
import { readTaskFile } from './task-files.ts';
import type { Task } from './types.ts';

export { TaskLocks } from './task-locks.ts';
// TaskDeps sits with the stage module and the flow (stages/stage.ts): the three refer to each other.
export type { TaskDeps };

/** The runner config of a task: task, then project, then global (spec "Runner resolution"). */
export async function taskRunner(deps: TaskDeps, task: Task, project: Project): Promise<RunnerConfig> {
  const stored = await deps.settings.stored();
  return resolveRunner(
    { task: task.runner, project: project.default_runner, global: stored.default_runner },
    await deps.settings.runnerConfigs(),
  ).config;
}

/** Claims a task for one piece of non-session work, or 409 TASK_BUSY naming what runs. */
export function claim(deps: TaskDeps, taskId: string, what: string): () => void {
  return deps.busy.claim(taskId, what);
}

/**
 * Holds a session of the task for one piece of work from its 202 (see `SessionRunner.reserve`): 409
 * SESSION_BUSY naming what runs, or TASK_DELETING.
 */
export async function reserveSession(
  deps: TaskDeps,
  taskId: string,
  sessionId: string,
  what: string,
): Promise<Reservation> {
  deps.busy.assertOpen(taskId);
  const reservation = await deps.runner.reserve(sessionId, what);
  if (deps.busy.closing(taskId)) {
    // The task's delete began while the session was being checked: nothing new starts in it.
    reservation.release();
    deps.busy.assertOpen(taskId);
  }
  return reservation;
}

/**
 * A new session of one of the task's stages, run by `config` in the task directory with the task's standing
 * instructions (the constitution) and its skills. `model: false` when none is needed yet (logging a hand
 * edit); `readOnly` for a session that may look but not change (the reviewer).
 */
export async function createTaskSession(
  deps: TaskDeps,
  task: Task,
  kind: SessionKind,
  config: RunnerConfig,
  options: { readOnly?: boolean; model?: boolean } = {},
): Promise<SessionRecord> {
  if (options.model !== false) await deps.settings.model(config);
  const taskDir = deps.paths.taskDir(task.id);
  const constitution = readTaskFile(taskDir, join(taskDir, 'constitution.md')) ?? '';
  return await deps.runner.create(kind, task.id, config.id, {
    workdir: taskDir,
    instructions: taskInstructions(task, constitution),
    skillDirs: [join(taskDir, '.skills')],
    ...(options.readOnly ? { readOnly: true } : {}),
  });
}

/**
 * The task's session of a stage (its row of `task_sessions`, keyed by the stage's key), made by `create`
 * and recorded when the task has none yet.
 */
export async function stageSession(
  deps: TaskDeps,
  taskId: string,
  stage: string,
  create: () => Promise<SessionRecord>,
): Promise<SessionRecord> {
  const id = await deps.store.stageSession(taskId, stage, async () => (await create()).id);
  return await deps.sessions.get(id);
}
