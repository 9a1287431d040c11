import { WorkbenchError } from '../errors.ts';
import { runGit } from './run-git.ts';

/** The full sha of `revision` peeled to a commit or tree; an unknown revision is the caller's mistake (422). */
export async function resolveRevision(
  dir: string,
  revision: string,
  kind: 'commit' | 'tree',
): Promise<string> {
  const args = ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{${kind}}`];
  const { stdout, exitCode } = await runGit(dir, args, { okExitCodes: [0, 1] });
  if (exitCode !== 0)
    throw new WorkbenchError('REPOSITORY_UNUSABLE', `${revision} is not a snapshot or commit of ${dir}`);
  return stdout.trim();
}
