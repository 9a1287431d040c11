import { WorkbenchError } from '../errors.ts';
import { type CommitIdentity, commitIdentityEnv } from './commit-identity.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { runGit } from './run-git.ts';

/**
 * `git add -A` and a commit with `message` (kept verbatim apart from surrounding whitespace, so Markdown
 * `#` headings survive). Returns the new commit's sha, or null when there was nothing to commit. No hook runs
 * (the repository may be a task workspace, whose hooks the model could have written: see `hardened-config.ts`).
 * `identityFrom`: the user's source repository whose identity authors the commit, `identity` the setting used
 * where it names nobody (see `commitIdentityEnv`).
 */
export async function commitAll(
  dir: string,
  message: string,
  options: { identityFrom?: string; identity?: CommitIdentity } = {},
): Promise<string | null> {
  await assertOwnGitDir(dir);
  if (message.trim() === '') throw new WorkbenchError('REPOSITORY_UNUSABLE', 'the commit message is empty');
  await runGit(dir, ['add', '--all', '--', ':/'], { what: 'staging the changes', timeoutMs: 10 * 60_000 });
  const staged = await runGit(dir, ['diff', '--cached', '--quiet', '--no-ext-diff'], { okExitCodes: [0, 1] });
  if (staged.exitCode === 0) return null;
  await runGit(dir, ['commit', '--quiet', '--cleanup=whitespace', '--file=-'], {
    env: await commitIdentityEnv(dir, options.identityFrom, options.identity),
    input: message,
    what: 'git commit failed',
    timeoutMs: 10 * 60_000,
  });
  const { stdout } = await runGit(dir, ['rev-parse', 'HEAD']);
  return stdout.trim();
}
