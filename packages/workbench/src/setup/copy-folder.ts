import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { cp, readdir, readlink, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// Copying a folder of installed dependencies into a workspace: copies, never hard links, so no workspace
// file is a file of the user's tree the agent could then write through. Copy-on-write where the file system
// offers it (btrfs, XFS, APFS: instant and no extra space until a file is changed), a plain copy elsewhere.

/** How the copy is made, in words, for the step's log. */
export type CopyMethod = 'cp -a --reflink=auto' | 'fs.cp (COPYFILE_FICLONE)';

let gnuCp: Promise<boolean> | undefined;

/** Whether `cp` is GNU's (it knows `--reflink`): asked once per process. */
function hasGnuCp(): Promise<boolean> {
  gnuCp ??= new Promise((answer) => {
    if (process.platform !== 'linux') return answer(false);
    execFile('cp', ['--version'], (error, stdout) => answer(!error && stdout.includes('GNU coreutils')));
  });
  return gnuCp;
}

/**
 * Copies the folder `from` to `to` (which must not exist), links as links (their text as it is: a relative
 * link stays relative), modes and times kept (npm trusts its hidden lockfile only when it is not older than
 * the folders). GNU `cp` in a child process where it exists (a large tree in process holds the event loop),
 * else Node's `fs.cp`, which clones where it can. Stopped by `signal`; what was copied is then left for the
 * caller to remove.
 */
export async function copyFolder(from: string, to: string, signal?: AbortSignal): Promise<CopyMethod> {
  if (await hasGnuCp()) {
    await new Promise<void>((done, fail) => {
      execFile('cp', ['-a', '--reflink=auto', '--', from, to], { signal }, (error, _stdout, stderr) => {
        if (error) fail(new Error(stderr.trim() || error.message));
        else done();
      });
    });
    return 'cp -a --reflink=auto';
  }
  // verbatimSymlinks: without it fs.cp rewrites a relative link as an absolute one into `from`, a link
  // back into the user's tree.
  await cp(from, to, {
    recursive: true,
    mode: constants.COPYFILE_FICLONE,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    errorOnExist: true,
    force: false,
  });
  signal?.throwIfAborted();
  return 'fs.cp (COPYFILE_FICLONE)';
}

/** Whether `path` is `root` or below it, by the path's words (`..` resolved, no link looked through). */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The first link in the folder `copy` whose target, once the folder is at `placedAt`, lies outside
 * `boundary` (the workspace): its path (relative to `boundary`) and target; undefined when every link stays
 * inside. Each link of the tree is checked itself, so a chain out is found at the link that leaves.
 */
export async function linkLeaving(
  copy: string,
  placedAt: string,
  boundary: string,
): Promise<{ link: string; target: string } | undefined> {
  // Recursive readdir does not descend through links to folders: the links themselves are listed.
  const entries = await readdir(copy, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue;
    const at = join(entry.parentPath, entry.name);
    const target = await readlink(at);
    const placed = join(placedAt, relative(copy, at));
    if (!within(boundary, resolve(dirname(placed), target))) {
      return { link: relative(boundary, placed), target };
    }
  }
  return undefined;
}

/** Removes a copy (possibly tens of thousands of files) with `rm -rf` in a child process; `fs.rm` without one. */
export function removeCopy(path: string): Promise<void> {
  return new Promise((done) => {
    execFile('rm', ['-rf', '--', path], (error) => {
      if (!error) return done();
      rm(path, { recursive: true, force: true, maxRetries: 3 }).then(done, () => done());
    });
  });
}
