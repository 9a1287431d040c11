import { rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { checkSettingsOf } from '../checks/index.ts';
import { WorkbenchError } from '../errors.ts';
import { isGitRepository } from '../git/index.ts';
import { previewSettingOf } from '../previews/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { setupSettingOf } from '../setup/index.ts';
import type { ProjectRecords } from '../store/index.ts';
import {
  keepReviews,
  type RepositoryTrust,
  repositoryConfigReport,
  reviewRepositories,
  withoutReviews,
} from './repository-trust.ts';
import type {
  CheckSetting,
  PreviewSetting,
  Project,
  Repository,
  RepositoryConfigReport,
  SetupSetting,
} from './types.ts';

type RepositoryInput = Omit<Repository, 'name'> & { name?: string | undefined };

/** Projects: checked input (real git repositories, known runner, unique repository names). */
export class ProjectService {
  readonly #store: ProjectRecords;
  readonly #settings: SettingsService;
  readonly #knowledgeDir: (projectId: string) => string;
  readonly #runtimeDir: string;
  /** The Keel runner's trust decision for a folder (the projects' `trust_repository_config`). */
  readonly #trust: RepositoryTrust;

  constructor(
    store: ProjectRecords,
    settings: SettingsService,
    trust: RepositoryTrust,
    paths: {
      knowledgeDir: (projectId: string) => string;
      /** WORKBENCH_HOME, where the task directories are. */
      home: string;
      /** RUNTIME_HOME, whose global config the runtime reads under a repository's own. */
      runtimeDir: string;
    },
  ) {
    this.#store = store;
    this.#settings = settings;
    this.#knowledgeDir = paths.knowledgeDir;
    this.#runtimeDir = paths.runtimeDir;
    this.#trust = trust;
  }

  list(): Promise<Project[]> {
    return this.#store.list();
  }

  get(id: string): Promise<Project> {
    return this.#store.get(id);
  }

  async create(input: {
    name: string;
    description: string;
    repositories: RepositoryInput[];
    default_runner?: string | null | undefined;
  }): Promise<Project> {
    await this.#settings.assertRunner(input.default_runner, 'default_runner');
    const repositories = await this.#repositories(input.repositories);
    const project = await this.#store.create({
      name: input.name,
      description: input.description,
      repositories,
      default_runner: input.default_runner ?? null,
    });
    await this.#trust.refresh();
    return project;
  }

  async update(
    id: string,
    patch: {
      name?: string | undefined;
      description?: string | undefined;
      repositories?: RepositoryInput[] | undefined;
      default_runner?: string | null | undefined;
      trust_repository_config?: boolean | undefined;
      checks?: Record<string, CheckSetting[]> | undefined;
      repair_turns?: number | undefined;
      setup?: Record<string, SetupSetting | null> | undefined;
      run_setup?: boolean | undefined;
      preview?: Record<string, PreviewSetting | null> | undefined;
      review_runner?: string | null | undefined;
    },
  ): Promise<Project> {
    const project = await this.#store.get(id);
    await this.#settings.assertRunner(patch.default_runner, 'default_runner');
    await this.#settings.assertRunner(patch.review_runner, 'review_runner');
    const changes: Partial<Project> = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.default_runner !== undefined) changes.default_runner = patch.default_runner;
    if (patch.trust_repository_config !== undefined)
      changes.trust_repository_config = patch.trust_repository_config;
    if (patch.repair_turns !== undefined) changes.repair_turns = patch.repair_turns;
    if (patch.run_setup !== undefined) changes.run_setup = patch.run_setup;
    if (patch.review_runner !== undefined) changes.review_runner = patch.review_runner;
    if (patch.repositories !== undefined) {
      await this.#notGenerating(project);
      changes.repositories = await this.#repositories(patch.repositories);
      // Knowledge of other repositories does not describe these: it is generated again.
      changes.status = 'CREATED';
      await this.#store.clearKnowledge(id);
      rmSync(this.#knowledgeDir(id), { recursive: true, force: true });
    }
    if (patch.checks !== undefined) {
      changes.repositories = withChecks(changes.repositories ?? project.repositories, patch.checks);
    }
    if (patch.setup !== undefined) {
      changes.repositories = withSetup(changes.repositories ?? project.repositories, patch.setup);
    }
    if (patch.preview !== undefined) {
      changes.repositories = withPreview(changes.repositories ?? project.repositories, patch.preview);
    }
    // Trust pinned to what the user saw: turning it on (again) records what each source repository's
    // config asks for now; off drops it; changed repositories keep the review of the same source.
    const repositories = changes.repositories ?? project.repositories;
    if (patch.trust_repository_config === true) {
      changes.repositories = reviewRepositories(this.#runtimeDir, repositories);
    } else if (patch.trust_repository_config === false) {
      changes.repositories = withoutReviews(repositories);
    } else if (changes.repositories) {
      changes.repositories = keepReviews(project.repositories, changes.repositories);
    }
    const updated = await this.#store.update(id, changes);
    await this.#trust.refresh();
    return updated;
  }

  /**
   * For each repository, what its `.runtime/config.json` (in the user's source repository) asks for that
   * applies only when trusted, and whether the project's Keel runs trust it now.
   */
  async repositoryConfig(id: string): Promise<{
    project_id: string;
    trust_repository_config: boolean;
    repositories: RepositoryConfigReport[];
  }> {
    const project = await this.#store.get(id);
    return {
      project_id: project.id,
      trust_repository_config: project.trust_repository_config,
      repositories: project.repositories.map((repository) =>
        repositoryConfigReport(this.#runtimeDir, repository, {
          trust_repository_config: project.trust_repository_config,
          trusts: this.#trust.trusts,
        }),
      ),
    };
  }

  /** Runs before a project is removed: stops its tasks' work and deletes them (set by the services). */
  beforeRemove: (projectId: string) => Promise<void> = async () => {};

  async remove(id: string): Promise<void> {
    await this.#notGenerating(await this.#store.get(id));
    await this.beforeRemove(id);
    await this.#store.remove(id);
    await this.#trust.refresh();
    rmSync(resolve(this.#knowledgeDir(id), '..'), { recursive: true, force: true });
  }

  async #notGenerating(project: Project): Promise<void> {
    if (project.status === 'INITIALIZING') {
      // What to stop: the knowledge sessions still at work.
      const running = (await this.#store.knowledge(project.id))
        .filter((record) => record.status === 'pending' || record.status === 'running')
        .flatMap((record) => (record.session_id ? [record.session_id] : []));
      throw new WorkbenchError(
        'INVALID_STATE',
        `Project '${project.id}' is generating its knowledge: wait for it to end, or stop its sessions (POST /api/sessions/{id}/stop for each of details.session_ids), then delete it.`,
        { state: project.status, allowed: [], session_ids: [...new Set(running)] },
      );
    }
  }

  /**
   * The repositories checked (in input order: the first bad one is the error) and their checks, setup and
   * preview found, every repository and every one of the three looked at concurrently.
   */
  async #repositories(inputs: RepositoryInput[]): Promise<Repository[]> {
    const paths = inputs.map((input) => resolve(input.path));
    const probes = await Promise.allSettled(paths.map((path) => isGitRepository(path)));
    const names: string[] = [];
    for (const [index, input] of inputs.entries()) {
      const path = paths[index]!;
      const probe = probes[index]!;
      if (probe.status === 'rejected') throw probe.reason;
      if (!probe.value) {
        throw new WorkbenchError(
          'NOT_A_GIT_REPOSITORY',
          `repositories.${index}.path: '${path}' is not a git repository.`,
          {
            field: `repositories.${index}.path`,
            path,
          },
        );
      }
      const name = input.name ?? basename(path);
      if (names.includes(name)) {
        throw new WorkbenchError(
          'INVALID_PARAMS',
          `repositories.${index}.name: two repositories are named '${name}'; give one a distinct name.`,
          { field: `repositories.${index}.name` },
        );
      }
      names.push(name);
    }
    return Promise.all(
      inputs.map(async (input, index): Promise<Repository> => {
        const path = paths[index]!;
        const [checks, setup, preview] = await Promise.all([
          checkSettingsOf(path),
          setupSettingOf(path),
          previewSettingOf(path),
        ]);
        return {
          path,
          type: input.type,
          name: names[index]!,
          ...(input.provider ? { provider: input.provider } : {}),
          // Found by a scan of the repository's own files (package.json, Makefile, …); edited later.
          checks,
          // From its lockfile (npm ci, uv sync, cargo fetch, …): run only once the project's run_setup is on.
          setup,
          // Its run/dev command (package.json dev/start, manage.py, …): started only from a task, by the user.
          preview,
        };
      }),
    );
  }
}

/** A 400 for a name of `byName` no repository has (`field`: `checks`, `setup` or `preview`). */
function assertRepositories(repositories: Repository[], field: string, byName: object): void {
  for (const name of Object.keys(byName)) {
    if (!repositories.some((repository) => repository.name === name)) {
      throw new WorkbenchError(
        'INVALID_PARAMS',
        `${field}.${name}: the project has no repository '${name}'.`,
        {
          field: `${field}.${name}`,
          available: repositories.map((repository) => repository.name),
        },
      );
    }
  }
}

/** The repositories with the setup given by name replaced (null: none); a name no repository has is a 400. */
function withSetup(repositories: Repository[], setup: Record<string, SetupSetting | null>): Repository[] {
  assertRepositories(repositories, 'setup', setup);
  return repositories.map((repository) => {
    const given = setup[repository.name];
    return given === undefined ? repository : { ...repository, setup: given };
  });
}

/** The repositories with the preview given by name replaced (null: none); a name no repository has is a 400. */
function withPreview(
  repositories: Repository[],
  preview: Record<string, PreviewSetting | null>,
): Repository[] {
  assertRepositories(repositories, 'preview', preview);
  return repositories.map((repository) => {
    const given = preview[repository.name];
    return given === undefined ? repository : { ...repository, preview: given };
  });
}

/** The repositories with the checks given by name replaced; a name no repository has is a 400. */
function withChecks(repositories: Repository[], checks: Record<string, CheckSetting[]>): Repository[] {
  assertRepositories(repositories, 'checks', checks);
  return repositories.map((repository) => {
    const given = checks[repository.name];
    return given === undefined ? repository : { ...repository, checks: given };
  });
}
