import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { entryKind, readNoFollow } from '../files/index.ts';
import { listFiles } from '../git/index.ts';
import { type CopyMethod, copyFolder, linkLeaving, removeCopy } from './copy-folder.ts';
import { detectSetup } from './detect-setup.ts';
import { type InstallRecord, installDiffers } from './installed-record.ts';

// Issue #37 item 3: a workspace of a JavaScript repository takes a copy of the node_modules already
// installed in the source repository (the project's path on the user's disk) instead of running its install,
// when that install is what the setup command would make: the same manifests, lockfile and install settings
// in the workspace as in the source's working tree, and the package manager's record saying node_modules is
// an install of that lockfile. A copy (copy-on-write where the file system can), never a hard link or a link
// back into the user's tree: the agent writes in its workspace, so a file shared with the user's tree would
// let it write there. Links inside the copy are kept as they are when they stay in the workspace (npm's
// `.bin`, pnpm's `.pnpm` store, a workspace package linked as `../packages/a`); a link out of it (an `npm
// link`ed package, pnpm's global virtual store, an absolute link into the user's tree) refuses the reuse and
// the install runs instead: dropping the link would leave a broken install, rewriting it would guess.
// Monorepos: the node_modules beside every package.json git tracks is copied too (packages/*/node_modules).

/** A JavaScript install the workspace can take from the source instead, by its setup command. */
interface JavaScriptInstall {
  /** The lockfiles it reads, the first present being the one it uses. */
  lockfiles: string[];
  /** Root files besides the manifests and lockfiles that change what it installs. */
  settings: string[];
  /** Its record of its last install in node_modules; bun leaves none. */
  record?: InstallRecord;
}

// Keyed by the commands `detectSetup` builds: a setup command changed by the user (extra flags, a build
// after the install) is not one of them, and runs.
const installs: Record<string, JavaScriptInstall> = {
  'npm ci': {
    lockfiles: ['npm-shrinkwrap.json', 'package-lock.json'],
    settings: ['.npmrc'],
    record: { kind: 'npm' },
  },
  'pnpm install --frozen-lockfile': {
    lockfiles: ['pnpm-lock.yaml'],
    settings: ['.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'],
    record: { kind: 'file', name: '.modules.yaml' },
  },
  'yarn install --frozen-lockfile': {
    lockfiles: ['yarn.lock'],
    settings: ['.yarnrc', '.npmrc'],
    record: { kind: 'file', name: '.yarn-integrity' },
  },
  // Only with `nodeLinker: node-modules`: Plug'n'Play installs no node_modules to take.
  'yarn install --immutable': {
    lockfiles: ['yarn.lock'],
    settings: ['.yarnrc.yml'],
    record: { kind: 'file', name: '.yarn-state.yml' },
  },
  'bun install --frozen-lockfile --backend=copyfile': {
    lockfiles: ['bun.lock', 'bun.lockb'],
    settings: ['bunfig.toml'],
  },
};

/** What the reuse did: copied the `folders` (relative to the workspace), or not, and why when it matters. */
export type DependencyReuse =
  | { reused: true; folders: string[]; method: CopyMethod }
  /** `why` is absent when the setup is no JavaScript install (nothing to say). */
  | { reused: false; why?: string };

const maxManifestBytes = 64 * 1024 * 1024;

function refused(why: string): DependencyReuse {
  return { reused: false, why };
}

/** Whether `name` has the same text in both repositories (both missing counts; a link never does). */
async function sameFile(source: string, workspace: string, name: string): Promise<boolean> {
  const read = (root: string) => readNoFollow(root, name, { maxBytes: maxManifestBytes });
  const [theirs, ours] = await Promise.all([read(source), read(workspace)]);
  if (theirs.why === 'missing' && ours.why === 'missing') return true;
  return theirs.why === undefined && ours.why === undefined && theirs.text === ours.text;
}

/** The node_modules folders to copy (relative paths), or why the source's cannot be taken. */
async function plan(source: string, workspace: string, command: string): Promise<string[] | DependencyReuse> {
  const javascript = (await detectSetup(workspace)).find((part) => Object.hasOwn(installs, part.command));
  if (!javascript) return { reused: false };
  if (command !== javascript.command)
    return refused(`the setup command is not \`${javascript.command}\` alone`);
  const install = installs[command] as JavaScriptInstall;
  const kind = await entryKind(source, 'node_modules');
  if (kind === 'missing') return refused('the source repository has no node_modules');
  if (kind !== 'folder') return refused(`the source repository's node_modules is a ${kind}, not a folder`);
  if (!install.record)
    return refused('bun leaves no record in node_modules to check it against its lockfile');
  // Every package.json git tracks, as in a monorepo each can change the install.
  const manifests = (await listFiles(workspace)).filter(
    (path) => /(^|\/)package\.json$/.test(path) && !path.split('/').includes('node_modules'),
  );
  for (const name of new Set(['package.json', ...install.lockfiles, ...install.settings, ...manifests])) {
    if (!(await sameFile(source, workspace, name))) return refused(`${name} differs from the source's`);
  }
  let lockfile: string | undefined;
  for (const name of install.lockfiles)
    lockfile ??= (await entryKind(workspace, name)) === 'file' ? name : undefined;
  if (!lockfile) return refused('the workspace has no lockfile');
  const stale = await installDiffers(source, lockfile, install.record);
  if (stale) return refused(stale);
  const folders: string[] = [];
  const packageDirs = manifests.map((path) => dirname(path)).filter((dir) => dir !== '.');
  for (const folder of ['node_modules', ...packageDirs.map((dir) => `${dir}/node_modules`)]) {
    const there = await entryKind(source, folder);
    if (there === 'missing') continue;
    if (there !== 'folder') return refused(`the source's ${folder} is a ${there}, not a folder`);
    if ((await entryKind(workspace, folder)) !== 'missing')
      return refused(`the workspace has ${folder} already`);
    folders.push(folder);
  }
  return folders;
}

/**
 * Copies the source repository's installed node_modules into the workspace when the repository's setup
 * `command` is its own JavaScript install and the source's install is one of the same lockfile; else says
 * why not (and the caller runs the command). Each folder is copied beside its place, its links checked,
 * then renamed into place: a refused or stopped copy leaves nothing behind. Never throws: whatever goes
 * wrong is a reason to run the install instead.
 * @example
 * const reuse = await reuseInstalledDependencies({ source: '/code/shop', workspace: taskDir + '/shop', command: 'npm ci' });
 */
export async function reuseInstalledDependencies(options: {
  /** The source repository's root, on the user's disk. */
  source: string;
  /** The task's clone of it. */
  workspace: string;
  /** The project's setup command for the repository. */
  command: string;
  signal?: AbortSignal;
}): Promise<DependencyReuse> {
  const { source, workspace, signal } = options;
  let folders: string[];
  try {
    const planned = await plan(source, workspace, options.command);
    if (!Array.isArray(planned)) return planned;
    folders = planned;
  } catch (error) {
    return refused(`the source's install could not be checked: ${(error as Error).message}`);
  }
  const copies = folders.map((folder) => {
    const placed = join(workspace, folder);
    return {
      from: join(source, folder),
      placed,
      staging: join(dirname(placed), `.node_modules.workbench-${randomUUID().slice(0, 8)}`),
      moved: false,
    };
  });
  let kept = false;
  try {
    let method: CopyMethod = 'cp -a --reflink=auto';
    for (const copy of copies) {
      method = await copyFolder(copy.from, copy.staging, signal);
      const leaving = await linkLeaving(copy.staging, copy.placed, workspace);
      if (leaving) return refused(`${leaving.link} links outside the workspace (to ${leaving.target})`);
    }
    for (const copy of copies) {
      await rename(copy.staging, copy.placed);
      copy.moved = true;
    }
    kept = true;
    return { reused: true, folders, method };
  } catch (error) {
    return refused(`copying it failed: ${(error as Error).message}`);
  } finally {
    if (!kept) await Promise.all(copies.map((copy) => removeCopy(copy.moved ? copy.placed : copy.staging)));
  }
}
