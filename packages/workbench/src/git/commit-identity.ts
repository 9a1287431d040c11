import { fallbackIdentity } from './git-env.ts';
import { runGit } from './run-git.ts';

/**
 * Author and committer variables for the parts of an identity that neither the repository's git config nor
 * the environment provides, so a commit works on a machine where git was never configured. A configured
 * identity always wins.
 */
export async function commitIdentityEnv(dir: string): Promise<Record<string, string>> {
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
