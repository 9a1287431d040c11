import type { Project, ProjectQuery, Run, Task } from '../store/index.ts';
import type { ProjectChatMessage, ProjectDeps, StartOptions } from './project-deps.ts';
import {
  type NewTaskInput,
  newTaskSchema,
  parseInput,
  type TaskUpdateInput,
  taskUpdateSchema,
} from './project-input.ts';
import { checkBranchName, checkoutBranch, repositoryRoot } from './task-branch.ts';

/**
 * Development tasks on a project (`/api/projects/{id}/tasks`, `/api/tasks/{id}`): each works on its own
 * git branch of the project's repository, in its own chat session.
 *
 * @example
 * const task = await runtime.tasks.create(project.id, { name: 'Fix login', branch_name: 'fix/login' });
 * await runtime.tasks.chat(task.id, { prompt: 'Make the login form remember the user' });
 */
export class TasksApi {
  readonly #deps: ProjectDeps;

  constructor(deps: ProjectDeps) {
    this.#deps = deps;
  }

  /**
   * Creates a task: checks the branch name (git check-ref-format), creates the branch from the current
   * commit or switches to it if it exists, then records the task with a new session. A dirty tree (or a
   * project outside git) is INVALID_STATE and nothing changes; a bad name is INVALID_PARAMS.
   */
  async create(projectId: string, input: NewTaskInput): Promise<Task> {
    const fields = parseInput(newTaskSchema, input);
    const project = await (await this.#deps.store()).getProject(projectId);
    await this.#switchTo(project, fields.branch_name);
    const session = this.#deps.sessions.create({
      title: `${project.name.trim()}: ${fields.name.trim()}`,
      workdir: project.workdir,
    });
    try {
      return await (await this.#deps.store()).createTask({
        project_id: project.id,
        name: fields.name,
        branch_name: fields.branch_name,
        session_id: session.id,
      });
    } catch (error) {
      this.#deps.sessions.delete(session.id);
      throw error;
    }
  }

  /** The project's tasks, newest first; PROJECT_NOT_FOUND for an unknown project. */
  async list(projectId: string, query: ProjectQuery = {}): Promise<Task[]> {
    return (await this.#deps.store()).listTasks(projectId, query);
  }

  /** TASK_NOT_FOUND for an unknown id. */
  async get(id: string): Promise<Task> {
    return (await this.#deps.store()).getTask(id);
  }

  /** The project a task belongs to. */
  async project(task: Task): Promise<Project> {
    return (await this.#deps.store()).getProject(task.project_id);
  }

  /** Renames the task, or moves it to another branch (created or switched to, as on create). */
  async update(id: string, input: TaskUpdateInput): Promise<Task> {
    const fields = parseInput(taskUpdateSchema, input);
    const task = await this.get(id);
    if (fields.branch_name !== undefined && fields.branch_name !== task.branch_name) {
      await this.#switchTo(await this.project(task), fields.branch_name);
    }
    return (await this.#deps.store()).updateTask(id, fields);
  }

  /** Deletes the task's record; its branch, session and runs stay. */
  async delete(id: string): Promise<void> {
    await (await this.#deps.store()).deleteTask(id);
  }

  /** Checks out the task's branch in the project's repository (same rules as create); returns the task. */
  async checkout(id: string): Promise<Task> {
    const task = await this.get(id);
    await this.#switchTo(await this.project(task), task.branch_name);
    return task;
  }

  /**
   * One chat turn on the task: its branch is checked out first (refused on a dirty tree, as a switch
   * is), then a run in the project's directory and the task's own session.
   */
  async chat(id: string, message: ProjectChatMessage, options: StartOptions = {}): Promise<Run> {
    const task = await this.checkout(id);
    const project = await this.project(task);
    return this.#deps.start(
      {
        ...message,
        workdir: project.workdir,
        ...(task.session_id ? { session_id: task.session_id } : {}),
        ...(project.code_paths.length > 0 ? { allowed_roots: project.code_paths } : {}),
      },
      options.execute === undefined ? {} : { execute: options.execute },
    );
  }

  async #switchTo(project: Project, branch: string): Promise<void> {
    await checkBranchName(branch);
    await checkoutBranch(await repositoryRoot(project.workdir), branch);
  }
}
