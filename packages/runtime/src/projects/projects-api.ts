import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, KeelError } from '../errors/index.ts';
import type { Project, ProjectQuery, Run } from '../store/index.ts';
import type { ProjectChatMessage, ProjectDeps, StartOptions } from './project-deps.ts';
import { guideFileName, guidePrompt, guideWorkflow } from './project-guide.ts';
import {
  type NewProjectInput,
  newProjectSchema,
  type ProjectUpdateInput,
  parseInput,
  projectUpdateSchema,
} from './project-input.ts';
import { existingDirectories, existingDirectory, initialiseRuntimeDirectory } from './project-paths.ts';

/** Where relative paths start. */
export interface ProjectCallOptions {
  /** Relative `workdir`s resolve from here (default: the process's current directory). */
  cwd?: string;
}

/**
 * The web API's projects (`/api/projects`), in the store so every surface sees the same records: a
 * directory with a description, further code paths and its own chat session.
 *
 * @example
 * const project = await runtime.projects.create({ name: 'shop', workdir: '/home/me/shop' });
 * const { run } = await runtime.projects.init(project.id); // writes AGENTS.md through an agent run
 */
export class ProjectsApi {
  readonly #deps: ProjectDeps;

  constructor(deps: ProjectDeps) {
    this.#deps = deps;
  }

  /**
   * Creates a project: checks its directories, gives it its runtime directories (`.runtime/` in the
   * project, its memory under the runtime directory) and a chat session. A bad field is INVALID_PARAMS
   * with `details.issues`.
   */
  async create(input: NewProjectInput, options: ProjectCallOptions = {}): Promise<Project> {
    const fields = parseInput(newProjectSchema, input);
    const workdir = await existingDirectory('workdir', fields.workdir, options.cwd ?? process.cwd());
    const codePaths = await existingDirectories(fields.code_paths, workdir);
    await initialiseRuntimeDirectory(workdir, this.#deps.runtimeDir);
    const session = this.#deps.sessions.create({ title: fields.name.trim(), workdir });
    try {
      return await (await this.#deps.store()).createProject({
        name: fields.name,
        description: fields.description,
        workdir,
        code_paths: codePaths,
        session_id: session.id,
      });
    } catch (error) {
      this.#deps.sessions.delete(session.id);
      throw error;
    }
  }

  /** Newest first; page with `before: <last id>` (default 50 a page). */
  async list(query: ProjectQuery = {}): Promise<Project[]> {
    return (await this.#deps.store()).listProjects(query);
  }

  /** PROJECT_NOT_FOUND for an unknown id. */
  async get(id: string): Promise<Project> {
    return (await this.#deps.store()).getProject(id);
  }

  /** Changes the given fields; a new `workdir` is checked and initialised as on create. */
  async update(id: string, input: ProjectUpdateInput, options: ProjectCallOptions = {}): Promise<Project> {
    const fields = parseInput(projectUpdateSchema, input);
    const current = await this.get(id);
    const workdir =
      fields.workdir === undefined
        ? undefined
        : await existingDirectory('workdir', fields.workdir, options.cwd ?? process.cwd());
    const codePaths =
      fields.code_paths === undefined
        ? undefined
        : await existingDirectories(fields.code_paths, workdir ?? current.workdir);
    if (workdir !== undefined && workdir !== current.workdir) {
      await initialiseRuntimeDirectory(workdir, this.#deps.runtimeDir);
    }
    return (await this.#deps.store()).updateProject(id, {
      ...(fields.name === undefined ? {} : { name: fields.name }),
      ...(fields.description === undefined ? {} : { description: fields.description }),
      ...(workdir === undefined ? {} : { workdir }),
      ...(codePaths === undefined ? {} : { code_paths: codePaths }),
    });
  }

  /**
   * Deletes the project and its tasks' records. Its sessions, runs, files and git branches stay: what was
   * said and done remains readable (`/sessions`, `/runtime/runs`).
   */
  async delete(id: string): Promise<void> {
    await (await this.#deps.store()).deleteProject(id);
  }

  /**
   * Analyses the project with the configured model and creates or updates its guide, `AGENTS.md` at the
   * top of its directory: an agent run like any other (listed by `keel runs list`), returned at once,
   * queued or (by default) executing here. CONFIG_ERROR when no usable model is configured.
   */
  async init(id: string, options: StartOptions = {}): Promise<{ run: Run; guide_path: string }> {
    const project = await this.get(id);
    const guidePath = join(project.workdir, guideFileName);
    const exists = (await stat(guidePath).catch(() => undefined))?.isFile() ?? false;
    try {
      const run = await this.#deps.start(
        {
          prompt: guidePrompt(project, exists),
          workdir: project.workdir,
          ...(project.code_paths.length > 0 ? { allowed_roots: project.code_paths } : {}),
        },
        { workflow: guideWorkflow(), ...(options.execute === undefined ? {} : { execute: options.execute }) },
      );
      return { run, guide_path: guidePath };
    } catch (error) {
      if (
        KeelError.is(error) &&
        error.code === 'CONFIG_ERROR' &&
        ['model', 'api_key'].includes(optionOf(error))
      ) {
        throw new ConfigError(`Project init needs a usable model. ${error.message}`, error.details);
      }
      throw error;
    }
  }

  /**
   * One chat turn on the project: a run in its directory, in its session (so the model sees the
   * conversation so far), with its code paths as extra roots.
   */
  async chat(id: string, message: ProjectChatMessage, options: StartOptions = {}): Promise<Run> {
    const project = await this.get(id);
    return this.#deps.start(
      {
        ...message,
        workdir: project.workdir,
        ...(project.session_id ? { session_id: project.session_id } : {}),
        ...(project.code_paths.length > 0 ? { allowed_roots: project.code_paths } : {}),
      },
      options.execute === undefined ? {} : { execute: options.execute },
    );
  }
}

function optionOf(error: KeelError): string {
  const option = error.details?.option;
  return typeof option === 'string' ? option : '';
}
