import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkbenchError } from '../../../errors.ts';
import { createWorkspace } from '../../../git/index.ts';
import { claim, stageSession, type TaskDeps, taskRunner } from '../../deps.ts';
import { moveTask } from '../../hand-off.ts';
import { noteTaskError, startAutomatically } from '../../stage-errors.ts';
import type { InitStep, Task, Workspace } from '../../types.ts';
import { copyKnowledge, copySkills } from './init-files.ts';
import { outputExcerpt, runSetupStep, StepFailure, type StepOutcome } from './setup-step.ts';

/**
 * Stage 01: retryable steps, run by the workbench itself (no AI): clone every repository into the task
 * directory on the task branch, install each repository's dependencies (its setup command, when the project's
 * run_setup is on), sync the linked skills into `.skills/`, copy project.md and constitution.md. Each step's
 * status is on the task and an event of its init session. A second `init` runs only the steps not done.
 */
export async function startInit(deps: TaskDeps, taskId: string): Promise<Task> {
  const { store, projects, runner } = deps;
  let task = await store.check(taskId, 'init');
  if (task.init.status === 'done') {
    throw new WorkbenchError(
      'INVALID_STATE',
      'The task is initialized: confirm it with POST /api/tasks/{id}/confirm-init.',
      {
        state: task.state,
        allowed: ['confirm_init', 'cancel'],
      },
    );
  }
  const project = await projects.get(task.project_id);
  if (project.status !== 'READY') {
    throw new WorkbenchError(
      'PROJECT_NOT_READY',
      `Project '${project.id}' is ${project.status}: generate its knowledge first (POST /api/projects/{id}/init).`,
      { project_id: project.id, status: project.status },
    );
  }
  const config = await taskRunner(deps, task, project);
  const release = claim(deps, taskId, 'initializing the task');
  const wanted = [
    ...project.repositories.map((repository) => `clone:${repository.name}`),
    // A step only for a repository with something to install; it says so when run_setup is off.
    ...project.repositories.flatMap((repository) => (repository.setup ? [`setup:${repository.name}`] : [])),
    'skills',
    'knowledge',
  ];
  const steps: InitStep[] = wanted.map((name) => {
    const done = task.init.steps.find((step) => step.name === name && step.status === 'done');
    return done ?? { name, status: 'pending' };
  });
  let sessionId: string;
  try {
    const session = await stageSession(deps, taskId, 'init', () =>
      runner.create('task_init', taskId, config.id, { workdir: deps.paths.taskDir(taskId), skillDirs: [] }),
    );
    sessionId = session.id;
    // Moved only now, after the awaits above: a request that moved the task meanwhile makes this refuse.
    task = await store.move(taskId, 'init');
    task = await store.update(taskId, { init: { status: 'running', steps }, error: null });
    await runner.setStatus(sessionId, 'running');
  } catch (error) {
    release();
    throw error;
  }
  deps.background.run(async () => {
    try {
      await runSteps(deps, taskId, sessionId);
    } finally {
      release();
    }
  });
  return task;
}

async function runSteps(deps: TaskDeps, taskId: string, sessionId: string): Promise<void> {
  const { store, projects, runner } = deps;
  const task = await store.get(taskId);
  const project = await projects.get(task.project_id);
  const taskDir = deps.paths.taskDir(taskId);
  await mkdir(taskDir, { recursive: true });
  const work: Record<string, () => Promise<string | StepOutcome>> = {
    skills: async () => {
      const linked = await deps.skills.linkedDirs(project.id);
      await copySkills(taskDir, linked);
      return `${linked.length} skill(s): ${linked.map((skill) => skill.name).join(', ') || 'none linked'}`;
    },
    knowledge: async () => {
      const { projectMd, constitutionMd } = deps.knowledge.documents(project.id);
      await copyKnowledge(taskDir, projectMd, constitutionMd);
      return 'project.md and constitution.md copied';
    },
  };
  for (const repository of project.repositories) {
    work[`setup:${repository.name}`] = () => runSetupStep(deps, taskId, repository.name);
    work[`clone:${repository.name}`] = async () => {
      const info = await createWorkspace({
        source: repository.path,
        dest: join(taskDir, repository.name),
        branch: task.branch,
      });
      const workspace: Workspace = {
        repository: repository.name,
        dir: info.dir,
        branch: info.branch,
        base_commit: info.baseCommit,
        base_branch: info.baseBranch,
        origin_url: info.originUrl,
      };
      await store.change(taskId, (current) => ({
        workspaces: [...current.workspaces.filter((each) => each.repository !== repository.name), workspace],
      }));
      return `${info.dir} on ${info.branch} from ${info.baseBranch} at ${info.baseCommit.slice(0, 12)}`;
    };
  }
  for (const step of (await store.get(taskId)).init.steps) {
    if (step.status === 'done') continue;
    // The task is being deleted: no further step writes into its directory.
    if (deps.busy.closing(taskId)) break;
    await runStep(deps, taskId, sessionId, step.name, work[step.name]);
  }
  const steps = (await store.get(taskId)).init.steps;
  const failed = steps.filter((step) => step.status !== 'done');
  await store.update(taskId, {
    init: { status: failed.length ? 'failed' : 'done', steps },
    error: failed.length
      ? `init steps failed: ${failed.map((step) => step.name).join(', ')}; retry with POST /api/tasks/{id}/init`
      : null,
  });
  await runner.setStatus(
    sessionId,
    failed.length ? 'failed' : 'succeeded',
    failed.length
      ? { code: 'INIT_FAILED', message: `steps failed: ${failed.map((step) => step.name).join(', ')}` }
      : null,
  );
}

/**
 * Runs one init step: its status on the task (`running`, then `done` with its detail or `failed` with its
 * error) and as events of the init session; a command's output is kept on the step as an excerpt and whole
 * on its event. Answers whether it succeeded.
 */
export async function runStep(
  deps: TaskDeps,
  taskId: string,
  sessionId: string,
  name: string,
  run: (() => Promise<string | StepOutcome>) | undefined,
): Promise<boolean> {
  const { runner } = deps;
  await setStep(deps, taskId, { name, status: 'running' });
  runner.record(sessionId, { type: 'step', step: name, status: 'running' });
  // The events are written off the event loop; each is waited for, so a failed append ends where it did.
  await runner.recorded(sessionId);
  try {
    const ended = run ? await run() : 'nothing to do';
    const { detail, output } = typeof ended === 'string' ? { detail: ended, output: undefined } : ended;
    const tail = output === undefined ? {} : { output: outputExcerpt(output) };
    await setStep(deps, taskId, { name, status: 'done', detail, ...tail });
    runner.record(sessionId, {
      type: 'step',
      step: name,
      status: 'done',
      detail,
      ...(output === undefined ? {} : { output }),
    });
    await runner.recorded(sessionId);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    const output = error instanceof StepFailure ? error.output : undefined;
    const tail = output === undefined ? {} : { output: outputExcerpt(output) };
    await setStep(deps, taskId, { name, status: 'failed', error: message, ...tail });
    const code = WorkbenchError.is(error) ? error.code : 'INIT_STEP_FAILED';
    runner.record(sessionId, {
      type: 'step',
      step: name,
      status: 'failed',
      error: { code, message },
      ...(output === undefined ? {} : { output }),
    });
    await runner.recorded(sessionId);
    return false;
  }
}

async function setStep(deps: TaskDeps, taskId: string, next: InitStep): Promise<void> {
  await deps.store.change(taskId, (task) => ({
    init: { ...task.init, steps: task.init.steps.map((step) => (step.name === next.name ? next : step)) },
  }));
}

/** INITIALIZING → the next stage (02, which starts its first draft) once every step is done (the user's confirmation). */
export async function confirmInit(deps: TaskDeps, taskId: string): Promise<Task> {
  const task = await deps.store.check(taskId, 'confirm_init');
  if (task.init.status !== 'done') {
    throw new WorkbenchError(
      'INIT_NOT_FINISHED',
      `Initialization is ${task.init.status}: ${task.init.status === 'failed' ? 'retry it with POST /api/tasks/{id}/init' : 'wait for it to finish'}.`,
      { init: task.init },
    );
  }
  return await moveTask(deps, taskId, 'confirm_init');
}

/**
 * The initialization a new task starts by itself: at once when its project is READY, else when the
 * project becomes READY (`KnowledgeService.onReady`). When the project's knowledge is not coming by
 * itself (CREATED, FAILED), the task's `error` says what to do.
 */
export async function initAutomatically(deps: TaskDeps, taskId: string): Promise<void> {
  const task = await deps.store.get(taskId);
  if (task.state !== 'CREATED' || task.init.status !== 'idle') return;
  const project = await deps.projects.get(task.project_id);
  if (project.status !== 'READY') {
    if (project.status !== 'INITIALIZING') {
      await noteTaskError(
        deps,
        taskId,
        `Initialization waits for project '${project.id}', which is ${project.status}: generate its knowledge with POST /api/projects/${project.id}/init; the task initializes itself once the project is READY.`,
      );
    }
    return;
  }
  await startAutomatically(
    deps,
    taskId,
    { what: 'Initialization', retry: `POST /api/tasks/${taskId}/init` },
    () => startInit(deps, taskId),
  );
}

/** A project became READY: its tasks waiting in CREATED initialize themselves. */
export async function initWaitingTasks(deps: TaskDeps, projectId: string): Promise<void> {
  for (const task of await deps.store.list(projectId)) {
    if (task.state === 'CREATED' && task.init.status === 'idle') await initAutomatically(deps, task.id);
  }
}
