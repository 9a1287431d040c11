import { readdir, realpath, stat } from 'node:fs/promises';
import { WorkbenchError } from '../errors.ts';
import { isGitRepository, repositoryRoot } from './is-git-repository.ts';
import type { WorkspaceOrigin } from './workspace-config.ts';
import { readWorkspaceOrigin } from './workspace-config.ts';

export type DestState = { kind: 'free' } | { kind: 'workspace'; origin: WorkspaceOrigin };

/**
 * Whether `dest` can receive a new workspace (missing or an empty folder), is already a workspace cloned from
 * `source`, or is something else, which is refused (409) so that nothing of the user's is overwritten.
 */
export async function inspectDest(dest: string, source: string): Promise<DestState> {
  const info = await stat(dest).catch(() => null);
  if (!info) return { kind: 'free' };
  if (info.isDirectory() && (await readdir(dest)).length === 0) return { kind: 'free' };
  // git reports the top level with symlinks resolved; compare like with like.
  if (
    info.isDirectory() &&
    (await isGitRepository(dest)) &&
    (await repositoryRoot(dest)) === (await realpath(dest))
  ) {
    const origin = await readWorkspaceOrigin(dest);
    if (origin?.source === source) return { kind: 'workspace', origin };
  }
  throw new WorkbenchError(
    'WORKSPACE_EXISTS',
    `${dest} already exists and is not a workspace cloned from ${source}`,
  );
}
