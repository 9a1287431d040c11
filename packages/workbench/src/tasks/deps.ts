import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Background } from '../background.ts';
import type { CommandRunner } from '../checks/index.ts';
import type { WorkbenchPaths } from '../config.ts';
import { WorkbenchError } from '../errors.ts';
import type { KnowledgeService, Project, RepositoryTrust } from '../projects/index.ts';
import { type RunnerConfig, resolveRunner } from '../runners/index.ts';
import type { Reservation, SessionKind, SessionRecord, SessionRunner, Sessions } from '../sessions/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { SetupRunner } from '../setup/index.ts';
import type { SkillService } from '../skills/index.ts';
import type { ProjectRecords } from '../store/index.ts';
import type { MergeRequestFollower } from './merge-request-follower.ts';
import { taskInstructions } from './prompts.ts';
import type { Flow } from './states.ts';
import { readTaskFile } from './task-files.ts';
import type { Tasks } from './tasks.ts';
import type { Task } from './types.ts';

/** What the stages of the flow share. */
export interface TaskDeps {
  store: Tasks;
  projects: ProjectRecords;
  /** The trust decision for repositories' `.runtime/config.json`: refreshed when a task is created. */
  trust: RepositoryTrust;
  knowledge: KnowledgeService;
  skills: SkillService;
  settings: SettingsService;
  runner: SessionRunner;
  sessions: Sessions;
  background: Background;
  paths: WorkbenchPaths;
  /** Tasks with work in progress that is not a session (init steps, run-all, submit): one at a time. */
  busy: TaskLocks;
  /** Runs the repositories' checks after a todo. */
  commands: CommandRunner;
  /** Runs the repositories' setup (install) commands during init: sandboxed, the network on. */
  setup: SetupRunner;
  /** Follows submitted merge requests to their end. */
  mergeRequests: MergeRequestFollower;
  /** The flow built from the registered stages: the table of moves every action is checked against. */
  flow: Flow;
  /** The task's previews (running dev servers): stopped by its delete, before its workspaces go. */
  previews?: { stopTask(taskId: string): Promise<void> };
}

/**
 * Per task: the one piece of non-session work running (init steps, a todo, run-all, submit), and whether the
 * task is being deleted (then nothing new starts, and the delete waits for what runs).
 */
export class TaskLocks {
  readonly #held = new Map<string, { what: string; ended: Promise<void> }>();
  readonly #closing = new Set<string>();

  /** What runs in the task, if anything. */
  get(taskId: string): string | undefined {
    return this.#held.get(taskId)?.what;
  }

  has(taskId: string): boolean {
    return this.#held.has(taskId);
  }

  /** True once a delete of the task began: work in progress stops at its next step. */
  closing(taskId: string): boolean {
    return this.#closing.has(taskId);
  }

  /** Refuses new work on a task being deleted (409 TASK_DELETING). */
  assertOpen(taskId: string): void {
    if (this.#closing.has(taskId)) {
      throw new WorkbenchError('TASK_DELETING', 'This task is being deleted: nothing new can start in it.', {
        task_id: taskId,
      });
    }
  }

  /** Holds the task for `what`; the release is idempotent. 409 TASK_BUSY when it is held already. */
  claim(taskId: string, what: string): () => void {
    this.assertOpen(taskId);
    const running = this.#held.get(taskId);
    if (running) {
      throw new WorkbenchError(
        'TASK_BUSY',
        `The task is busy with ${running.what}: wait for it to end, then try again.`,
        { task_id: taskId, running: running.what },
      );
    }
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const hold = { what, ended };
    this.#held.set(taskId, hold);
    return () => {
      if (this.#held.get(taskId) === hold) this.#held.delete(taskId);
      end();
    };
  }

  /** Waits up to `ms` for the work the task holds to end; true when nothing runs in it any more. */
  async settled(taskId: string, ms: number): Promise<boolean> {
    const held = this.#held.get(taskId);
    if (!held) return true;
    const timer = new AbortController();
    await Promise.race([held.ended, delay(ms, undefined, { signal: timer.signal }).catch(() => undefined)]);
    timer.abort();
    return !this.#held.has(taskId);
  }

  /** Starts refusing new work on the task; answers when the work it holds (if any) has ended. */
  async close(taskId: string): Promise<void> {
    this.#closing.add(taskId);
    await this.#held.get(taskId)?.ended;
  }

  /** Forgets a task closed for deleting, once its row is gone (nothing can address it any more). */
  forget(taskId: string): void {
    this.#closing.delete(taskId);
  }
}

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
