import { runGit } from './run-git.ts';

/** Who commits when the repository and the environment name nobody (git would refuse to commit). */
export const fallbackIdentity = { name: 'Keel Workbench', email: 'workbench@keel.local' };

/** Author and committer variables naming Keel, for commits that are Keel's own objects (snapshots). */
export function fixedIdentityEnv(): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: fallbackIdentity.name,
    GIT_AUTHOR_EMAIL: fallbackIdentity.email,
    GIT_COMMITTER_NAME: fallbackIdentity.name,
    GIT_COMMITTER_EMAIL: fallbackIdentity.email,
  };
}

/**
 * Author and committer variables for a commit in `dir`.
 *
 * With `source` (the user's own repository a task workspace was cloned from), the identity is the one git
 * resolves there: its `user.name` and `user.email` from the repository's config, then the global and system
 * files (unless the environment turns system config off). A task workspace's own `.git/config` is never
 * asked, as the model could have written it: every part is set explicitly. What the source does not name
 * comes from `setting` (the workbench's `git_identity`), then the environment (`GIT_AUTHOR_*`,
 * `GIT_COMMITTER_*`, `EMAIL`), then the Keel identity.
 *
 * Without `source`, `dir`'s configured identity wins and only the missing parts are filled in, so a commit
 * works on a machine where git was never configured.
 */
export async function commitIdentityEnv(
  dir: string,
  source?: string,
  setting: CommitIdentity = {},
): Promise<Record<string, string>> {
  if (source !== undefined) return sourceIdentityEnv(source, setting);
  const { stdout } = await runGit(dir, ['config', '--get-regexp', '^user\\.(name|email)$'], {
    okExitCodes: [0, 1],
  });
  const configured = new Set(stdout.split('\n').map((line) => line.split(' ')[0]?.toLowerCase()));
  const env: Record<string, string> = {};
  for (const role of ['AUTHOR', 'COMMITTER']) {
    if (!configured.has('user.name') && !process.env[`GIT_${role}_NAME`])
      env[`GIT_${role}_NAME`] = fallbackIdentity.name;
    if (!configured.has('user.email') && !process.env[`GIT_${role}_EMAIL`] && !process.env.EMAIL) {
      env[`GIT_${role}_EMAIL`] = fallbackIdentity.email;
    }
  }
  return env;
}

/** The workbench's own setting (`git_identity`): used where the source repository names nobody. */
export interface CommitIdentity {
  name?: string | null;
  email?: string | null;
}

async function sourceIdentityEnv(source: string, setting: CommitIdentity): Promise<Record<string, string>> {
  const name = (await sourceConfig(source, 'user.name')) ?? setting.name ?? undefined;
  const email = (await sourceConfig(source, 'user.email')) ?? setting.email ?? undefined;
  const env: Record<string, string> = {};
  for (const role of ['AUTHOR', 'COMMITTER']) {
    env[`GIT_${role}_NAME`] = name ?? process.env[`GIT_${role}_NAME`] ?? fallbackIdentity.name;
    env[`GIT_${role}_EMAIL`] =
      email ?? process.env[`GIT_${role}_EMAIL`] ?? process.env.EMAIL ?? fallbackIdentity.email;
  }
  return env;
}

/** One config value as git resolves it in the user's repository (its own file, then global, then system). */
async function sourceConfig(source: string, key: string): Promise<string | undefined> {
  try {
    const { stdout, exitCode } = await runGit(source, ['config', '--get', key], {
      okExitCodes: [0, 1],
      // The user's own repository, not a workspace: its system config counts as git would count it.
      env: { GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM ?? '0' },
      what: `reading ${key} of ${source}`,
    });
    const value = stdout.trim();
    return exitCode === 0 && value ? value : undefined;
  } catch {
    // A source that moved away names nobody: the fallbacks apply.
    return undefined;
  }
}
