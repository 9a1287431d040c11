import { rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import { isGitRepository } from '../git/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { ProjectStore } from './project-store.ts';
import type { Project, Repository } from './types.ts';

type RepositoryInput = Omit<Repository, 'name'> & { name?: string | undefined };

/** Projects: checked input (real git repositories, known runner, unique repository names). */
export class ProjectService {
  readonly #store: ProjectStore;
  readonly #settings: SettingsService;
  readonly #knowledgeDir: (projectId: string) => string;

  constructor(store: ProjectStore, settings: SettingsService, knowledgeDir: (projectId: string) => string) {
    this.#store = store;
    this.#settings = settings;
    this.#knowledgeDir = knowledgeDir;
  }

  list(): Project[] {
    return this.#store.list();
  }

  get(id: string): Project {
    return this.#store.get(id);
  }

  async create(input: {
    name: string;
    description: string;
    repositories: RepositoryInput[];
    default_runner?: string | null | undefined;
  }): Promise<Project> {
    this.#settings.assertRunner(input.default_runner, 'default_runner');
    const repositories = await this.#repositories(input.repositories);
    return this.#store.create({
      name: input.name,
      description: input.description,
      repositories,
      default_runner: input.default_runner ?? null,
    });
  }

  async update(
    id: string,
    patch: {
      name?: string | undefined;
      description?: string | undefined;
      repositories?: RepositoryInput[] | undefined;
      default_runner?: string | null | undefined;
    },
  ): Promise<Project> {
    const project = this.#store.get(id);
    this.#settings.assertRunner(patch.default_runner, 'default_runner');
    const changes: Partial<Project> = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.default_runner !== undefined) changes.default_runner = patch.default_runner;
    if (patch.repositories !== undefined) {
      this.#notGenerating(project);
      changes.repositories = await this.#repositories(patch.repositories);
      // Knowledge of other repositories does not describe these: it is generated again.
      changes.status = 'CREATED';
      this.#store.clearKnowledge(id);
      rmSync(this.#knowledgeDir(id), { recursive: true, force: true });
    }
    return this.#store.update(id, changes);
  }

  remove(id: string): void {
    this.#notGenerating(this.#store.get(id));
    this.#store.remove(id);
    rmSync(resolve(this.#knowledgeDir(id), '..'), { recursive: true, force: true });
  }

  #notGenerating(project: Project): void {
    if (project.status === 'INITIALIZING') {
      throw new WorkbenchError(
        'INVALID_STATE',
        409,
        `Project '${project.id}' is generating its knowledge: wait for it.`,
        {
          state: project.status,
          allowed: [],
        },
      );
    }
  }

  async #repositories(inputs: RepositoryInput[]): Promise<Repository[]> {
    const repositories: Repository[] = [];
    for (const [index, input] of inputs.entries()) {
      const path = resolve(input.path);
      if (!(await isGitRepository(path))) {
        throw new WorkbenchError(
          'NOT_A_GIT_REPOSITORY',
          422,
          `repositories.${index}.path: '${path}' is not a git repository.`,
          {
            field: `repositories.${index}.path`,
            path,
          },
        );
      }
      const name = input.name ?? basename(path);
      if (repositories.some((each) => each.name === name)) {
        throw new WorkbenchError(
          'INVALID_PARAMS',
          400,
          `repositories.${index}.name: two repositories are named '${name}'; give one a distinct name.`,
          { field: `repositories.${index}.name` },
        );
      }
      repositories.push({
        path,
        type: input.type,
        name,
        ...(input.provider ? { provider: input.provider } : {}),
      });
    }
    return repositories;
  }
}
