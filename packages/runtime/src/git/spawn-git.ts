import { lstat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gitEnv } from './git-env.ts';
import { hardenedConfig, namedCommandOverrides } from './hardened-config.ts';
import { type CollectedRun, spawnCollect } from './spawn-collect.ts';

export interface SpawnGitOptions {
  /** Variables added to the git environment (temporary index, identity, ...). */
  env?: Record<string, string>;
  /** Written to git's stdin. */
  input?: string;
  /** Kill git after this long. Default 2 minutes. */
  timeoutMs?: number;
  /** Stdout beyond this stops git (the run says `truncated`). Default 64 MiB. */
  maxStdoutBytes?: number;
  /**
   * Transports git may use (GIT_ALLOW_PROTOCOL). Default `file` only: nothing a repository's config names
   * (a promisor remote, a submodule URL) is fetched unless the caller allows the network on purpose.
   */
  allowProtocols?: readonly string[];
}

/**
 * THE way Keel runs git (the runtime's task branches, every git command of the workbench): never through
 * a shell, bounded in time and output, and hardened against the repository it runs in. Whatever its
 * `.git/config` says, no hook, fsmonitor, pager, editor, askpass, credential helper, signing program or
 * filter driver runs, and the repository is pinned (GIT_DIR, GIT_WORK_TREE) so `core.worktree` cannot point
 * git at another folder. Never rejects: a failure is data for the caller to word.
 */
export async function spawnGit(
  cwd: string,
  args: readonly string[],
  options: SpawnGitOptions = {},
): Promise<CollectedRun> {
  const env = { ...(await pinnedRepository(cwd, options.env)), ...options.env };
  const config = [...hardenedConfig, ...(await namedCommandOverrides(cwd, args, env))];
  return spawnCollect('git', args, {
    cwd,
    env: gitEnv(env, {
      config,
      ...(options.allowProtocols ? { allowProtocols: options.allowProtocols } : {}),
    }),
    timeoutMs: options.timeoutMs ?? 120_000,
    maxStdoutBytes: options.maxStdoutBytes ?? 64 * 1024 * 1024,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
}

/**
 * When `cwd` holds a real `.git` folder, GIT_DIR and GIT_WORK_TREE name it and `cwd` explicitly: the
 * environment wins over `core.worktree` in the repository's config, which could otherwise point `add`,
 * `read-tree -u`, `reset` or `switch` at any folder of the user's.
 */
async function pinnedRepository(
  cwd: string,
  env: Record<string, string> = {},
): Promise<Record<string, string>> {
  if (env.GIT_DIR !== undefined) return {};
  const dotGit = join(resolve(cwd), '.git');
  const info = await lstat(dotGit).catch(() => null);
  return info?.isDirectory() ? { GIT_DIR: dotGit, GIT_WORK_TREE: resolve(cwd) } : {};
}
