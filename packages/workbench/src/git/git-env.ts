/** Who commits when the repository and the environment name nobody (git would refuse to commit). */
export const fallbackIdentity = { name: 'Keel Workbench', email: 'workbench@keel.local' };

/**
 * The environment every git command runs with: the caller's, plus no interactive prompts (a prompt would hang
 * a service with no terminal) and untranslated messages (we match a few of git's stderr texts). LANGUAGE
 * rather than LC_ALL, so hooks still run in the user's locale.
 */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', LANGUAGE: 'en', ...extra };
}

/** Author and committer variables naming Keel, for commits that are Keel's own objects (snapshots). */
export function fixedIdentityEnv(): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: fallbackIdentity.name,
    GIT_AUTHOR_EMAIL: fallbackIdentity.email,
    GIT_COMMITTER_NAME: fallbackIdentity.name,
    GIT_COMMITTER_EMAIL: fallbackIdentity.email,
  };
}
