import type { Preview, PreviewLog } from '@keel/protocol/workbench';
import { WorkbenchError } from '../errors.ts';
import { type Hub, taskChannel } from '../sessions/index.ts';
import type { ProjectRecords, Task } from '../store/index.ts';
import { freePort } from './free-port.ts';
import { type PreviewLaunchOptions, previewLaunch } from './preview-launch.ts';
import { PreviewProcess, type PreviewTimings } from './preview-process.ts';

/**
 * What the previews use of the tasks' deps (`TaskDeps` is one): the tasks' workspaces, their delete lock and
 * the projects' settings. Named here, not imported: projects find a repository's preview command here, and
 * tasks need the projects, so the previews may not need the tasks.
 */
export interface PreviewTaskDeps {
  store: { get(id: string): Promise<Task> };
  projects: ProjectRecords;
  busy: { assertOpen(taskId: string): void };
}

/** What the previews use: the tasks (their workspaces and delete lock), the projects' settings, the hub. */
export interface PreviewDeps {
  tasks: PreviewTaskDeps;
  hub: Hub;
  launch: PreviewLaunchOptions;
  timings?: PreviewTimings;
}

/**
 * The previews of every task, in memory only (a process does not outlive the service, so neither does its
 * record): one per repository of a task, started by the user, stopped by the user, by the task's delete
 * (`stopTask`) or by the service's shutdown (`close`). Each change and each piece of output is told on the
 * task's WebSocket channel.
 */
export class PreviewService {
  readonly #deps: PreviewDeps;
  /** Per task: its previews by repository, the last one of each (ended ones kept for their log). */
  readonly #byTask = new Map<string, Map<string, PreviewProcess>>();
  /** `task/repository` while its start is being prepared: a second start then is refused. */
  readonly #starting = new Set<string>();
  #closed = false;

  constructor(deps: PreviewDeps) {
    this.#deps = deps;
  }

  async list(taskId: string): Promise<Preview[]> {
    await this.#deps.tasks.store.get(taskId);
    return [...(this.#byTask.get(taskId)?.values() ?? [])].map((preview) => preview.view());
  }

  async log(taskId: string, repository: string): Promise<PreviewLog> {
    return (await this.#find(taskId, repository)).log();
  }

  /** Starts the preview of `repository` in the task's workspace; answers it `starting`. */
  async start(taskId: string, repository: string): Promise<Preview> {
    const { tasks } = this.#deps;
    const task = await tasks.store.get(taskId);
    tasks.busy.assertOpen(taskId);
    const project = await tasks.projects.get(task.project_id);
    const setting = project.repositories.find((entry) => entry.name === repository);
    if (!setting) {
      throw new WorkbenchError('REPOSITORY_NOT_FOUND', `The project has no repository '${repository}'.`, {
        repository,
        available: project.repositories.map((entry) => entry.name),
      });
    }
    const command = setting.preview?.command;
    if (!command) {
      throw new WorkbenchError(
        'NO_PREVIEW_COMMAND',
        `The repository '${repository}' has no preview command: none was found in its files (a dev or start ` +
          "script in package.json, manage.py, bin/rails, main.go, src/main.rs). Set one in the project's " +
          `settings, a command that serves on $PORT: PUT /api/projects/${project.id} ` +
          `{"preview": {"${repository}": {"command": "npm run dev"}}}.`,
        { repository, project_id: project.id },
      );
    }
    const workspace = task.workspaces.find((entry) => entry.repository === repository);
    if (!workspace) {
      throw new WorkbenchError(
        'NO_WORKSPACE',
        `The task has no workspace of '${repository}' yet: initialize it first (POST /api/tasks/${taskId}/init).`,
        { repository },
      );
    }
    const key = `${taskId}/${repository}`;
    const current = this.#byTask.get(taskId)?.get(repository);
    if (current?.live || this.#starting.has(key)) {
      throw new WorkbenchError(
        'PREVIEW_RUNNING',
        `The preview of '${repository}' runs already${current ? ` at ${current.view().url}` : ''}: stop it ` +
          `first (DELETE /api/tasks/${taskId}/previews/${repository}) to start it again.`,
        { repository, ...(current ? { preview: current.view() } : {}) },
      );
    }
    this.#starting.add(key);
    try {
      const port = await freePort();
      const launch = await previewLaunch(this.#deps.launch, workspace.dir, command, port);
      // Nothing awaited from here to the spawn: a delete or a shutdown that began meanwhile is seen.
      tasks.busy.assertOpen(taskId);
      this.#assertOpen();
      const channel = taskChannel(taskId);
      const preview = new PreviewProcess(
        launch,
        { repository, command, port },
        {
          changed: (view) => this.#deps.hub.publish({ type: 'preview', channel, preview: view }),
          output: (name, seq, text) =>
            this.#deps.hub.publish({ type: 'preview_log', channel, repository: name, seq, text }),
        },
        this.#deps.timings,
      );
      const previews = this.#byTask.get(taskId) ?? new Map<string, PreviewProcess>();
      previews.set(repository, preview);
      this.#byTask.set(taskId, previews);
      const view = preview.view();
      this.#deps.hub.publish({ type: 'preview', channel, preview: view });
      return view;
    } finally {
      this.#starting.delete(key);
    }
  }

  /** Stops the preview of `repository` (and everything it started); answers it once it ended. */
  async stop(taskId: string, repository: string): Promise<Preview> {
    const preview = await this.#find(taskId, repository);
    await preview.stop();
    return preview.view();
  }

  /** Stops every preview of a task and forgets them: the task is being deleted. */
  async stopTask(taskId: string): Promise<void> {
    const previews = this.#byTask.get(taskId);
    this.#byTask.delete(taskId);
    await Promise.all([...(previews?.values() ?? [])].map((preview) => preview.stop()));
  }

  /** Stops every preview of every task; nothing starts afterwards (the service is stopping). */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#byTask.keys()].map((taskId) => this.stopTask(taskId)));
  }

  async #find(taskId: string, repository: string): Promise<PreviewProcess> {
    await this.#deps.tasks.store.get(taskId);
    const preview = this.#byTask.get(taskId)?.get(repository);
    if (!preview) {
      throw new WorkbenchError(
        'PREVIEW_NOT_FOUND',
        `The task has no preview of '${repository}': start one with POST /api/tasks/${taskId}/previews.`,
        { repository },
      );
    }
    return preview;
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new WorkbenchError('INVALID_STATE', 'The workbench is stopping: no preview starts now.');
    }
  }
}
