import { WorkbenchError } from '../errors.ts';
import { refExists } from './current-branch.ts';
import { redactCredentials } from './git-error.ts';
import { runGit } from './run-git.ts';

export interface PushResult {
  /** The lines the remote printed (`remote: ...`), e.g. GitLab's merge request link. */
  remoteMessages: string[];
  /** A merge request URL announced by the remote (GitLab prints one for `merge_request.create`), if any. */
  mergeRequestUrl: string | null;
}

/** Pushes `branch` to `remote` (default origin) and sets it as upstream; `pushOptions` become `-o` flags. */
export async function pushBranch(
  dir: string,
  options: { branch: string; remote?: string; pushOptions?: string[] },
): Promise<PushResult> {
  const remote = options.remote ?? 'origin';
  if (!(await refExists(dir, `refs/heads/${options.branch}`))) {
    throw new WorkbenchError(
      'GIT_ERROR',
      422,
      `cannot push ${options.branch}: there is no such branch in ${dir}`,
    );
  }
  const flags = (options.pushOptions ?? []).flatMap((option) => ['-o', option]);
  const refspec = `refs/heads/${options.branch}:refs/heads/${options.branch}`;
  const { stderr } = await runGit(dir, ['push', '--set-upstream', ...flags, '--', remote, refspec], {
    what: `pushing ${options.branch} to ${remote} failed`,
    errorCode: 'PUSH_FAILED',
    errorStatus: 502,
    timeoutMs: 10 * 60_000,
  });
  const remoteMessages = redactCredentials(stderr)
    .split('\n')
    .filter((line) => line.startsWith('remote:'))
    .map((line) => line.slice('remote:'.length).trim());
  const mergeRequestUrl = remoteMessages
    .map((line) => /https?:\/\/\S+\/merge_requests\/\S+/.exec(line)?.[0])
    .find(Boolean);
  return { remoteMessages, mergeRequestUrl: mergeRequestUrl ?? null };
}
