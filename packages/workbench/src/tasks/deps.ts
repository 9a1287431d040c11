import type { Background } from '../background.ts';
import type { WorkbenchPaths } from '../config.ts';
import { WorkbenchError } from '../errors.ts';
import type { KnowledgeService, Project, ProjectStore } from '../projects/index.ts';
import { type RunnerConfig, resolveRunner } from '../runners/index.ts';
import type { SessionRunner, SessionStore } from '../sessions/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { SkillService } from '../skills/index.ts';
import type { TaskStore } from './task-store.ts';
import type { Task } from './types.ts';

/** What the stages of the flow share. */
export interface TaskDeps {
  store: TaskStore;
  projects: ProjectStore;
  knowledge: KnowledgeService;
  skills: SkillService;
  settings: SettingsService;
  runner: SessionRunner;
  sessions: SessionStore;
  background: Background;
  paths: WorkbenchPaths;
  fetch: typeof fetch;
  /** Tasks with work in progress that is not a session (init steps, run-all, submit): one at a time. */
  busy: Map<string, string>;
}

/** The runner config of a task: task, then project, then global (spec "Runner resolution"). */
export function taskRunner(deps: TaskDeps, task: Task, project: Project): RunnerConfig {
  return resolveRunner(
    { task: task.runner, project: project.default_runner, global: deps.settings.stored().default_runner },
    deps.settings.runnerConfigs(),
  ).config;
}

/** Claims a task for one piece of non-session work, or 409 TASK_BUSY naming what runs. */
export function claim(deps: TaskDeps, taskId: string, what: string): () => void {
  const running = deps.busy.get(taskId);
  if (running) {
    throw new WorkbenchError('TASK_BUSY', 409, `Task '${taskId}' is busy (${running}): wait for it to end.`, {
      task_id: taskId,
      running,
    });
  }
  deps.busy.set(taskId, what);
  return () => {
    if (deps.busy.get(taskId) === what) deps.busy.delete(taskId);
  };
}
