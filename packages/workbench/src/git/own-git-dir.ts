import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkbenchError } from '../errors.ts';

/**
 * Refuses a workspace whose `.git` is not a real folder, or holds a symbolic link. A `.git` link or `gitdir:`
 * file planted by the model could point the workbench's snapshots, commits and pushes at another repository
 * of the user's (with a real folder, `runGit` pins GIT_DIR and GIT_WORK_TREE to it). Inside it, git writes
 * the index, config, refs and logs through a lock file renamed onto the *target* of a link: `.git/index` →
 * `~/.bashrc` would have git replace the user's file. Loose objects are not walked (git writes them with
 * new names only).
 */
export async function assertOwnGitDir(dir: string): Promise<void> {
  const dotGit = join(dir, '.git');
  const info = await lstat(dotGit).catch(() => null);
  if (!info) return;
  if (!info.isDirectory()) throw tampered(dotGit, 'is not a folder (a link or a gitdir file)');
  const link = await findLink(dotGit, true);
  if (link) throw tampered(link, 'is a symbolic link');
}

async function findLink(folder: string, top: boolean): Promise<string | null> {
  for (const entry of await entriesOf(folder)) {
    const path = join(folder, entry.name);
    if (entry.isSymbolicLink()) return path;
    if (!entry.isDirectory()) continue;
    // objects/: only its own entries (info/, pack/, the fan-out folders) are checked, not every object.
    if (top && entry.name === 'objects') {
      for (const inner of await entriesOf(path)) {
        if (inner.isSymbolicLink()) return join(path, inner.name);
      }
      for (const sub of ['info', 'pack']) {
        const found = await findLink(join(path, sub), false).catch(() => null);
        if (found) return found;
      }
      continue;
    }
    const found = await findLink(path, false);
    if (found) return found;
  }
  return null;
}

/**
 * A folder's entries; none when it went away meanwhile (git removes emptied ref folders while it packs
 * refs or runs beside this check): a folder that is gone holds no link.
 */
async function entriesOf(folder: string) {
  return readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
}

function tampered(path: string, why: string): WorkbenchError {
  return new WorkbenchError(
    'REPOSITORY_UNUSABLE',
    `${path} ${why}: the workbench runs git only on the workspace's own repository and never writes through links`,
    { reason: 'workspace_git_tampered', path },
  );
}
