import { join, relative, sep } from 'node:path';
import { type IgnoredConfigKey, loadConfigReport, type ProjectConfigPin, toErrorObject } from '@keel/runtime';
import { canonicalPath, isInside, markChanges, pinChanges } from '@keel/runtime/internal';
import type { Project, Repository, RepositoryConfigReport, ReviewedConfig } from './types.ts';

/** The runtime's question for one folder: may its `.runtime/config.json`, asking for `asks`, apply? */
export type TrustDecision = (dir: string, asks: ProjectConfigPin) => boolean;

/** Where the trust decision looks: the projects, the workbench's home, and which project a task is of. */
export interface RepositoryTrustSource {
  projects(): Project[];
  /** WORKBENCH_HOME: task directories are `tasks/<task id>` under it. */
  home: string;
  projectOfTask(taskId: string): string | undefined;
}

/**
 * The Keel runner's trust decision (RuntimeOptions.trustProjectConfig): whether a folder's
 * `.runtime/config.json` may apply its security-relevant keys. Only a project's repositories with its
 * `trust_repository_config` on are trusted, and only while the file asks for exactly what the user's source
 * repository asked for when they turned it on, having seen `GET /api/projects/{id}/repository-config`
 * (`reviewed_config`): in the source repository itself (knowledge, conversations) and
 * in its workspace in each of the project's tasks (`WORKBENCH_HOME/tasks/<task id>/<repository name>`),
 * where an agent may have rewritten the file. A repository that several projects list is trusted only
 * when all of them trust it. Every other folder never is, whatever the runtime's global trust list says:
 * a subfolder (its own file was never reviewed), a task directory itself, a conversation without a
 * project, anything else in WORKBENCH_HOME, a folder of no project.
 */
export function repositoryConfigTrust(source: RepositoryTrustSource): TrustDecision {
  return (dir, asks) => {
    if (typeof asks?.sha256 !== 'string') return false;
    const matches = (repository: Repository | undefined) =>
      repository?.reviewed_config?.sha256 === asks.sha256;
    const folder = canonicalPath(dir);
    const home = canonicalPath(source.home);
    if (isInside(folder, home)) {
      const parts = relative(home, folder).split(sep);
      const [tasks, taskId, repositoryName] = parts;
      if (parts.length !== 3 || tasks !== 'tasks' || !taskId || !repositoryName) return false;
      const projectId = source.projectOfTask(taskId);
      const project = source.projects().find((each) => each.id === projectId);
      return Boolean(
        project?.trust_repository_config &&
          matches(project.repositories.find((repository) => repository.name === repositoryName)),
      );
    }
    const owned = source
      .projects()
      .flatMap((project) =>
        project.repositories
          .filter((repository) => canonicalPath(repository.path) === folder)
          .map((repository) => ({ project, repository })),
      );
    return (
      owned.length > 0 &&
      owned.every(({ project, repository }) => project.trust_repository_config && matches(repository))
    );
  };
}

/**
 * The repositories with what each source repository's `.runtime/config.json` asks for now recorded as
 * reviewed: the moment the user turns `trust_repository_config` on, having seen the report. A file that
 * cannot be read records nothing (it stays untrusted; the report says why).
 */
export function reviewRepositories(runtimeDir: string, repositories: readonly Repository[]): Repository[] {
  return repositories.map(({ reviewed_config: _, ...repository }) => {
    try {
      const { sha256, keys } = loadConfigReport(runtimeDir, repository.path, false).pin;
      return { ...repository, reviewed_config: { sha256, keys, reviewed_at: new Date().toISOString() } };
    } catch {
      return repository;
    }
  });
}

/** The repositories with their reviews dropped (trust turned off: turning it on reviews again). */
export function withoutReviews(repositories: readonly Repository[]): Repository[] {
  return repositories.map(({ reviewed_config: _, ...repository }) => repository);
}

/** New repositories keep the review of the same source repository (same path and name) from before. */
export function keepReviews(before: readonly Repository[], after: readonly Repository[]): Repository[] {
  return after.map((repository) => {
    const same = before.find((old) => old.path === repository.path && old.name === repository.name);
    return same?.reviewed_config ? { ...repository, reviewed_config: same.reviewed_config } : repository;
  });
}

/**
 * The trust decision (`repositoryConfigTrust`) over a copy of the projects and of which project each task
 * is of, because the runtime asks synchronously and the store answers asynchronously. The copy is read
 * again (`refresh`) after every change of either that the workbench makes: creating, changing or deleting
 * a project, creating a task. A folder the copy does not know yet is not trusted.
 */
export class RepositoryTrust {
  readonly #read: () => Promise<{ projects: Project[]; owners: Map<string, string> }>;
  #projects: Project[] = [];
  #owners = new Map<string, string>();
  /** Refreshes started so far: an older one answering late does not overwrite a newer copy. */
  #started = 0;
  #applied = 0;
  /** Whether `dir`'s `.runtime/config.json`, asking for what it asks, may apply its security-relevant keys. */
  readonly trusts: TrustDecision;

  constructor(
    source: { projects: () => Promise<Project[]>; taskOwners: () => Promise<Map<string, string>> },
    home: string,
  ) {
    this.#read = async () => {
      const [projects, owners] = await Promise.all([source.projects(), source.taskOwners()]);
      return { projects, owners };
    };
    this.trusts = repositoryConfigTrust({
      projects: () => this.#projects,
      home,
      projectOfTask: (taskId) => this.#owners.get(taskId),
    });
  }

  async refresh(): Promise<void> {
    const generation = ++this.#started;
    const { projects, owners } = await this.#read();
    if (generation < this.#applied) return;
    this.#applied = generation;
    this.#projects = projects;
    this.#owners = owners;
  }
}

/**
 * What a repository's `.runtime/config.json` asks for that applies only in a trusted folder, read from the
 * user's source repository: the keys the runtime ignores untrusted, less those it never applies from a
 * project file (`trusted_folders`), and whether the project's Keel runs apply them now (`trusts`). With
 * the project's trust on, a key that differs from what was reviewed says so first in `why`. A broken file
 * is reported, not thrown.
 */
export function repositoryConfigReport(
  runtimeDir: string,
  repository: Repository,
  project: { trust_repository_config: boolean; trusts: TrustDecision },
): RepositoryConfigReport {
  const file = join(repository.path, '.runtime', 'config.json');
  const base = { repository: repository.name, path: repository.path, file };
  try {
    const untrusted = loadConfigReport(runtimeDir, repository.path, false);
    const trusted = project.trusts(repository.path, untrusted.pin);
    const never = new Set(loadConfigReport(runtimeDir, repository.path, true).ignored.map((key) => key.key));
    const ignored = untrusted.ignored.filter((key) => !never.has(key.key));
    const asks = explained(
      ignored,
      project.trust_repository_config && !trusted,
      repository.reviewed_config,
      untrusted.pin,
    ).map(({ file, key, value, kind, why }) => ({ file, key, value, kind, why }));
    return { ...base, trusted, asks };
  } catch (error) {
    const { code, message } = toErrorObject(error);
    return { ...base, trusted: false, asks: [], error: { code, message } };
  }
}

/** Why each key does not apply although the project trusts its repositories: changed, new or never reviewed. */
function explained(
  asks: IgnoredConfigKey[],
  refused: boolean,
  reviewed: ReviewedConfig | undefined,
  now: ProjectConfigPin,
): IgnoredConfigKey[] {
  if (!refused) return asks;
  if (reviewed) return markChanges(asks, pinChanges(reviewed, now));
  return asks.map((ask) => ({
    ...ask,
    why: `not reviewed yet (the repository was added after trust was turned on: set trust_repository_config to true again); ${ask.why}`,
  }));
}
