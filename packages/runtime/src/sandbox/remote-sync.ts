import {
  chmod,
  lstat,
  mkdir,
  readFile,
  readlink,
  rename,
  rm,
  rmdir,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RemoteEntry, RemoteSandboxApi } from './remote-api.ts';
import {
  describe,
  difference,
  type HashCache,
  type LocalEntry,
  sameEntry,
  sha256Of,
  tempName,
} from './remote-manifest.ts';

/** Requests in flight at once: enough to hide a round trip, few enough not to flood a provider. */
const parallel = 8;

/** Runs `task` over `items`, `parallel` at a time; the first failure is thrown once the others settle. */
async function eachLimited<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length && errors.length === 0) {
      const item = items[next++] as T;
      await task(item).catch((error: unknown) => void errors.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}

/**
 * Makes the sandbox's tree equal to the local one: removes what is gone here, then writes what differs
 * (directories, files, symlinks). Returns how many paths were written and removed.
 */
export async function upload(
  api: RemoteSandboxApi,
  id: string,
  root: string,
  local: ReadonlyMap<string, LocalEntry>,
  remote: ReadonlyMap<string, RemoteEntry>,
): Promise<{ written: number; removed: number }> {
  const { write, remove } = difference(remote, local);
  await eachLimited(remove, (path) => api.remove(id, path));
  const directories = write.filter((entry) => entry.type === 'directory');
  // One by one, parents first: a provider need not create a directory's parents twice at once.
  for (const entry of directories) await api.putDirectory(id, entry.path);
  await eachLimited(
    write.filter((entry) => entry.type !== 'directory'),
    async (entry) => {
      if (entry.type === 'symlink') return api.putSymlink(id, entry.path, entry.target ?? '');
      const contents = await readFile(join(root, entry.path));
      await api.putFile(id, entry.path, contents, Boolean(entry.executable));
    },
  );
  return { written: write.length, removed: remove.length };
}

/** What `download` did, and what it left alone because it changed here while the command ran. */
export interface DownloadResult {
  written: string[];
  removed: string[];
  kept: string[];
  /** True when `stopping` cut it short (between two files: none is ever half written). */
  stopped: boolean;
}

/**
 * Brings the command's changes back: `sent` is the tree as uploaded before the command, `after` the
 * sandbox's tree once it ended. A local path that is no longer as it was sent was changed here meanwhile:
 * it is kept, and named in `kept`. Each file lands whole (written beside, then renamed over).
 */
export async function download(options: {
  api: RemoteSandboxApi;
  id: string;
  root: string;
  sent: ReadonlyMap<string, LocalEntry>;
  after: ReadonlyMap<string, RemoteEntry>;
  cache: HashCache;
  stopping: () => boolean;
}): Promise<DownloadResult> {
  const { api, id, root, sent, after, cache, stopping } = options;
  const result: DownloadResult = { written: [], removed: [], kept: [], stopped: false };
  const { write } = difference(sent, after);
  // Deepest first, so a directory is empty by the time its turn comes.
  const gone = [...sent.keys()]
    .filter((path) => !after.has(path))
    .sort()
    .reverse();
  for (const path of gone) {
    if (stopping()) return { ...result, stopped: true };
    const entry = sent.get(path) as LocalEntry;
    const absolute = join(root, path);
    // Gone here too: nothing to do.
    if (!(await lstat(absolute).catch(() => undefined))) continue;
    if (!(await safeParents(root, path, false)) || !(await unchanged(root, path, entry))) {
      result.kept.push(path);
      continue;
    }
    // A directory that still holds something (excluded or made here meanwhile) stays.
    await (entry.type === 'directory'
      ? rmdir(absolute).catch(() => undefined)
      : rm(absolute, { force: true }));
    delete cache[path];
    result.removed.push(path);
  }
  const apply = async (entry: RemoteEntry) => {
    if (stopping()) {
      result.stopped = true;
      return;
    }
    const current = await lstat(join(root, entry.path)).catch(() => undefined);
    if (entry.type === 'directory' && current?.isDirectory()) return;
    // Parents first: `unchanged` follows a symlinked parent, which safeParents refuses.
    if (!(await safeParents(root, entry.path))) {
      result.kept.push(entry.path);
      return;
    }
    if (!(await unchanged(root, entry.path, sent.get(entry.path)))) {
      // Changed here meanwhile, but to the same thing (another command brought it back already): no conflict.
      const here = current && (await describe(join(root, entry.path), entry.path, current, cache));
      if (!sameEntry(here, entry)) result.kept.push(entry.path);
      return;
    }
    await place(api, id, root, entry, cache);
    result.written.push(entry.path);
  };
  for (const entry of write.filter((item) => item.type === 'directory')) await apply(entry);
  await eachLimited(
    write.filter((item) => item.type !== 'directory'),
    apply,
  );
  return result;
}

/** Writes one entry from the sandbox at its local path, replacing whatever is there, atomically for files. */
async function place(
  api: RemoteSandboxApi,
  id: string,
  root: string,
  entry: RemoteEntry,
  cache: HashCache,
): Promise<void> {
  const absolute = join(root, entry.path);
  if (entry.type === 'directory') {
    await rm(absolute, { recursive: true, force: true });
    await mkdir(absolute);
    return;
  }
  const temp = join(dirname(absolute), tempName());
  try {
    if (entry.type === 'symlink') {
      await symlink(entry.target ?? '', temp);
    } else {
      const contents = await api.readFile(id, entry.path);
      await writeFile(temp, contents, { mode: entry.executable ? 0o755 : 0o644 });
      // The mode given at creation is filtered by the umask; the executable bit must come through.
      if (entry.executable) await chmod(temp, 0o755);
      const info = await lstat(temp);
      cache[entry.path] = [info.size, info.mtimeMs, sha256Of(contents)];
    }
    // rename replaces a file or a symlink, not a directory: one that became a file goes first.
    if ((await lstat(absolute).catch(() => undefined))?.isDirectory()) {
      await rm(absolute, { recursive: true, force: true });
    }
    await rename(temp, absolute);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Whether the local path is still as `entry` (as uploaded; undefined: absent) describes it. */
async function unchanged(root: string, path: string, entry: LocalEntry | undefined): Promise<boolean> {
  const info = await lstat(join(root, path)).catch(() => undefined);
  if (!entry || !info) return !entry && !info;
  if (entry.type === 'directory') return info.isDirectory();
  if (entry.type === 'symlink') {
    return (
      info.isSymbolicLink() && (await readlink(join(root, path)).catch(() => undefined)) === entry.target
    );
  }
  return info.isFile() && info.size === entry.size && info.mtimeMs === entry.mtimeMs;
}

/**
 * Whether the parents of `path` under `root` are directories, not symlinks, creating missing ones when
 * `create`: a command in the sandbox must not be able to make the client write outside the workdir.
 */
async function safeParents(root: string, path: string, create = true): Promise<boolean> {
  const segments = path.split('/').slice(0, -1);
  let current = root;
  for (const segment of segments) {
    current = join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (info?.isDirectory()) continue;
    if (info || !create) return false;
    await mkdir(current);
  }
  return true;
}
