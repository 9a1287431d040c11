import { join, relative, sep } from 'node:path';
import { loadConfigReport, toErrorObject } from '@keel/runtime';
import { canonicalPath, isInside } from '@keel/runtime/internal';
import type { Project, Repository, RepositoryConfigReport } from './types.ts';

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
 * `trust_repository_config` on are trusted: its source repositories (knowledge, conversations) and their
 * workspaces in its tasks (`WORKBENCH_HOME/tasks/<task id>/<repository name>`). A repository that several
 * projects list is trusted only when all of them trust it. Every other folder never is, whatever the
 * runtime's global trust list says: a task directory itself (its `.runtime/config.json` would be no
 * repository's file), a conversation without a project, anything else in WORKBENCH_HOME, a folder of no
 * project.
 */
export function repositoryConfigTrust(source: RepositoryTrustSource): (dir: string) => boolean {
  return (dir) => {
    const folder = canonicalPath(dir);
    const home = canonicalPath(source.home);
    if (isInside(folder, home)) {
      const [tasks, taskId, repositoryName] = relative(home, folder).split(sep);
      if (tasks !== 'tasks' || !taskId || !repositoryName) return false;
      const projectId = source.projectOfTask(taskId);
      const project = source.projects().find((each) => each.id === projectId);
      return Boolean(
        project?.trust_repository_config &&
          project.repositories.some((repository) => repository.name === repositoryName),
      );
    }
    const owners = source
      .projects()
      .filter((project) =>
        project.repositories.some((repository) => isInside(folder, canonicalPath(repository.path))),
      );
    return owners.length > 0 && owners.every((project) => project.trust_repository_config);
  };
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
  /** Whether `dir`'s `.runtime/config.json` may apply its security-relevant keys. */
  readonly trusts: (dir: string) => boolean;

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
 * project file (`trusted_folders`). A broken file is reported, not thrown.
 */
export function repositoryConfigReport(
  runtimeDir: string,
  repository: Repository,
  trusted: boolean,
): RepositoryConfigReport {
  const file = join(repository.path, '.runtime', 'config.json');
  const base = { repository: repository.name, path: repository.path, file, trusted };
  try {
    const untrusted = loadConfigReport(runtimeDir, repository.path, false);
    const never = new Set(loadConfigReport(runtimeDir, repository.path, true).ignored.map((key) => key.key));
    const asks = untrusted.ignored
      .filter((key) => !never.has(key.key))
      .map(({ file, key, value, kind, why }) => ({ file, key, value, kind, why }));
    return { ...base, asks };
  } catch (error) {
    const { code, message } = toErrorObject(error);
    return { ...base, asks: [], error: { code, message } };
  }
}
