import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { readNoFollow } from '../files/index.ts';

// Whether a repository's node_modules is an install of its lockfile, from the package manager's own record
// of its last install. A lockfile that is the same as the workspace's says nothing about a node_modules the
// user has not installed again since a pull, or installed without its dev dependencies: copying that would
// give the task a different install from the one its setup command makes.

/** What a package manager leaves in node_modules about its last install: npm's hidden lockfile, or a file. */
export type InstallRecord = { kind: 'npm' } | { kind: 'file'; name: string };

const maxLockfileBytes = 64 * 1024 * 1024;

type Entries = Record<string, Record<string, unknown>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `packages` of an npm lockfile (version 2 or 3), or undefined. */
function packagesOf(text: string): Entries | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const packages = isRecord(parsed) ? parsed.packages : undefined;
    return isRecord(packages) && Object.values(packages).every(isRecord) ? (packages as Entries) : undefined;
  } catch {
    return undefined;
  }
}

// What identifies an installed package: the same in the hidden lockfile as in the lockfile, or not the same package.
const identity = ['version', 'resolved', 'integrity', 'link'] as const;

/**
 * Why npm's hidden lockfile (`node_modules/.package-lock.json`, what npm wrote of the tree it installed) is
 * not an install of `lockfile`, or undefined when it is: every package installed is the lockfile's, at the
 * same version, source and integrity, and every package of the lockfile is installed but the optional ones
 * (a platform's binaries are skipped on the others). An install with `--omit=dev` is not one.
 */
export function npmInstallDiffers(lockfile: string, hidden: string): string | undefined {
  const wanted = packagesOf(lockfile);
  if (!wanted) return 'its lockfile has no `packages` (lockfileVersion 1)';
  const installed = packagesOf(hidden);
  if (!installed) return 'node_modules/.package-lock.json is not a lockfile npm wrote';
  for (const [path, entry] of Object.entries(installed)) {
    if (path === '') continue;
    const want = wanted[path];
    if (!want) return `node_modules has ${path}, which the lockfile does not`;
    if (identity.some((field) => want[field] !== entry[field])) {
      return `${path} is installed at ${entry.version ?? entry.resolved}, not the lockfile's ${want.version ?? want.resolved}`;
    }
  }
  for (const [path, want] of Object.entries(wanted)) {
    if (path === '' || path in installed || want.optional === true || want.devOptional === true) continue;
    return `${path} of the lockfile is not installed`;
  }
  return undefined;
}

/**
 * Why the node_modules of the repository at `source` is not an install of its `lockfile` (the one the
 * package manager reads), or undefined when its record says it is. npm: the hidden lockfile against the
 * lockfile; pnpm, yarn: their record file, which must be no older than the lockfile (a pull or checkout
 * that changed the lockfile after the install leaves it older).
 */
export async function installDiffers(
  source: string,
  lockfile: string,
  record: InstallRecord,
): Promise<string | undefined> {
  if (record.kind === 'npm') {
    const hidden = await readNoFollow(source, 'node_modules/.package-lock.json', {
      maxBytes: maxLockfileBytes,
    });
    if (hidden.why !== undefined)
      return 'its node_modules has no .package-lock.json (npm writes one on install)';
    const lock = await readNoFollow(source, lockfile, { maxBytes: maxLockfileBytes });
    if (lock.why !== undefined) return `its ${lockfile} could not be read (${lock.why})`;
    const why = npmInstallDiffers(lock.text, hidden.text);
    return why && `its node_modules is not an install of its ${lockfile}: ${why}`;
  }
  const written = await lstat(join(source, 'node_modules', record.name)).catch(() => undefined);
  if (!written?.isFile()) return `its node_modules has no ${record.name} (written on install)`;
  const lock = await lstat(join(source, lockfile));
  return lock.mtimeMs > written.mtimeMs ? `its ${lockfile} changed after its last install` : undefined;
}
