// Packs the repository's packages and installs them into a fresh project, as a user's `npm install` would.
// Used by the installation test (packages/all/test) and the start-up benchmark (bench/startup.ts).
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..');
// The repository's npm, run by the Node that runs the tests (the system's may be older).
const npmArgs = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

export interface Project {
  dir: string;
  /** A Node binary of the oldest version the packages support, installed from npm. */
  oldestNodePath: string;
}

/** `npm pack` of every published package into `dest`; returns package name → tarball path. */
export async function packAll(dest: string): Promise<Map<string, string>> {
  await mkdir(dest, { recursive: true });
  const tarballs = new Map<string, string>();
  for (const folder of await readdir(join(repoRoot, 'packages'))) {
    const manifest = JSON.parse(
      await readFile(join(repoRoot, 'packages', folder, 'package.json'), 'utf8'),
    ) as {
      name: string;
      private?: boolean;
    };
    if (manifest.private) continue;
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest, ...npmArgs], {
      cwd: join(repoRoot, 'packages', folder),
    });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    if (!packed) throw new Error(`npm pack printed nothing for ${manifest.name}`);
    tarballs.set(manifest.name, join(dest, packed.filename));
  }
  return tarballs;
}

/**
 * A new project depending on every tarball (so the packages find each other there, not on the registry),
 * plus the Node types a TypeScript user has; and, beside it, the oldest supported Node.
 */
export async function installProject(
  dir: string,
  tarballs: Map<string, string>,
  options: { oldestNode?: string } = {},
): Promise<Project> {
  await mkdir(dir, { recursive: true });
  const dependencies: Record<string, string> = { '@types/node': '^24' };
  for (const [name, path] of tarballs) dependencies[name] = `file:${path}`;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'keel-user-project', private: true, type: 'module', dependencies }, null, 2),
  );
  await run('npm', ['install', ...npmArgs], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  if (!options.oldestNode) return { dir, oldestNodePath: process.execPath };

  const nodeDir = join(dir, '..', 'oldest-node');
  await mkdir(nodeDir, { recursive: true });
  await writeFile(
    join(nodeDir, 'package.json'),
    JSON.stringify({
      private: true,
      dependencies: { node: options.oldestNode },
      allowScripts: { node: true },
    }),
  );
  await run('npm', ['install', ...npmArgs], { cwd: nodeDir });
  return { dir, oldestNodePath: join(nodeDir, 'node_modules', 'node', 'bin', 'node') };
}

/**
 * A new project where `npm install <name>` is run as the README says, with the package's tarball in place of
 * its name: the other Keel packages it depends on come from their tarballs (npm `overrides`), since they are
 * not on the registry; everything else comes from the registry as for a user.
 */
export async function installRow(dir: string, tarballs: Map<string, string>, name: string): Promise<void> {
  const tarball = tarballs.get(name);
  if (!tarball) throw new Error(`no tarball for ${name}`);
  await mkdir(dir, { recursive: true });
  const overrides: Record<string, string> = {};
  // npm refuses an override of the package being installed itself (EOVERRIDE).
  for (const [other, path] of tarballs) if (other !== name) overrides[other] = `file:${path}`;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'keel-row-project', private: true, type: 'module', overrides }, null, 2),
  );
  await run('npm', ['install', tarball, ...npmArgs], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
}
