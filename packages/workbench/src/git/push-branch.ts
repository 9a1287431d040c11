import { copyFile, lstat, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import { refExists } from './current-branch.ts';
import { redactCredentials } from './git-error.ts';
import { assertOwnGitDir } from './own-git-dir.ts';
import { remoteUrl } from './remote-url.ts';
import { runGit } from './run-git.ts';

export interface PushResult {
  /** The lines the remote printed (`remote: ...`), e.g. GitLab's merge request link. */
  remoteMessages: string[];
  /** A merge request URL announced by the remote (GitLab prints one for `merge_request.create`), if any. */
  mergeRequestUrl: string | null;
}

// The push reaches the network; `ext::` and `fd::` (a command as a URL) never.
const pushProtocols = ['https', 'http', 'ssh', 'git', 'file'];

/**
 * Pushes `branch` of the repository at `dir` to `url` and records `remote` (default origin) as its upstream;
 * `pushOptions` become `-o` flags. The push runs from a throwaway bare repository that borrows the
 * workspace's objects (`objects/info/alternates`): git then reads the user's global config and the
 * environment, never the workspace's `.git/config`, so nothing a model wrote there (`remote.*.url`,
 * `pushurl`, `receivepack`, `url.*.insteadOf`, `credential.helper`, `http.proxy`, `core.sshCommand`, ...)
 * takes part in the push. Give `url` from trusted config (the workbench passes the URL of the source
 * repository's origin); without it the URL of `remote` in `dir`'s own config is used, for repositories
 * the caller trusts.
 */
export async function pushBranch(
  dir: string,
  options: { branch: string; remote?: string; url?: string; pushOptions?: string[] },
): Promise<PushResult> {
  await assertOwnGitDir(dir);
  const remote = options.remote ?? 'origin';
  const what = `pushing ${options.branch} to ${remote} failed`;
  const ref = `refs/heads/${options.branch}`;
  if (!(await refExists(dir, ref))) {
    throw new WorkbenchError(
      'REPOSITORY_UNUSABLE',
      `cannot push ${options.branch}: there is no such branch in ${dir}`,
    );
  }
  const url = options.url ?? (await remoteUrl(dir, remote));
  if (!url) throw new WorkbenchError('NO_REMOTE', `${what}: ${dir} has no remote ${remote}`);
  const sha = (
    await runGit(dir, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`])
  ).stdout.trim();
  const flags = (options.pushOptions ?? []).flatMap((option) => ['-o', option]);
  const scratch = await mkdtemp(join(tmpdir(), 'keel-push-'));
  let stderr: string;
  try {
    await borrowObjects(dir, scratch);
    const env = { GIT_DIR: scratch };
    await runGit(scratch, ['update-ref', ref, sha], { env, what });
    ({ stderr } = await runGit(scratch, ['push', ...flags, '--', url, `${ref}:${ref}`], {
      env,
      allowProtocols: pushProtocols,
      what,
      errorCode: 'PUSH_FAILED',
      timeoutMs: 10 * 60_000,
    }));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  await recordUpstream(dir, remote, options.branch, sha);
  const remoteMessages = redactCredentials(stderr)
    .split('\n')
    .filter((line) => line.startsWith('remote:'))
    .map((line) => line.slice('remote:'.length).trim());
  const mergeRequestUrl = remoteMessages
    .map((line) => /https?:\/\/\S+\/merge_requests\/\S+/.exec(line)?.[0])
    .find(Boolean);
  return { remoteMessages, mergeRequestUrl: mergeRequestUrl ?? null };
}

/** A fresh bare repository at `scratch` that sees `dir`'s objects (and its shallow boundary, if any). */
async function borrowObjects(dir: string, scratch: string): Promise<void> {
  await runGit(scratch, ['init', '--quiet', '--bare', scratch], { env: { GIT_DIR: scratch } });
  const paths = await runGit(dir, ['rev-parse', '--git-path', 'objects', '--git-path', 'shallow']);
  const [objects = '', shallow = ''] = paths.stdout.trim().split('\n');
  await writeFile(join(scratch, 'objects', 'info', 'alternates'), `${resolve(dir, objects)}\n`);
  const shallowFile = resolve(dir, shallow);
  if ((await lstat(shallowFile).catch(() => null))?.isFile())
    await copyFile(shallowFile, join(scratch, 'shallow'));
}

/** What `push --set-upstream` would record: the remote-tracking ref and the branch's upstream. */
async function recordUpstream(dir: string, remote: string, branch: string, sha: string): Promise<void> {
  await runGit(dir, ['update-ref', `refs/remotes/${remote}/${branch}`, sha]);
  await runGit(dir, ['config', '--local', `branch.${branch}.remote`, remote]);
  await runGit(dir, ['config', '--local', `branch.${branch}.merge`, `refs/heads/${branch}`]);
}
