import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import { isGitRepository, listFiles } from '../git/index.ts';
import { findEntryPoints } from './entry-points.ts';
import { languageShares } from './languages.ts';
import { separateLinks } from './links.ts';
import { readManifests } from './manifests/read-manifests.ts';
import { detectTestFrameworks } from './test-frameworks.ts';
import { isTestFile, testDirs } from './test-layout.ts';
import { renderTree } from './tree.ts';
import type { RepositoryScan } from './types.ts';
import { walkFiles } from './walk-files.ts';

/**
 * Scans a repository for knowledge generation: its files (through git, so .gitignore is honoured; a plain
 * walk for a folder that is no repository), languages, manifests, entry points, tests and a bounded tree.
 * Symbolic links are named (in `links` and the tree) but never read or walked through.
 */
export async function scanRepository(
  dir: string,
  options: { maxTreeEntries?: number; maxDepth?: number } = {},
): Promise<RepositoryScan> {
  const root = resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory())
    throw new WorkbenchError('SCAN_FAILED', `cannot scan ${root}: it is not a folder`);
  const listed = (await isGitRepository(root)) ? await listFiles(root) : await walkFiles(root);
  const { files, links } = await separateLinks(root, listed);
  const manifests = await readManifests(root, files);
  const testFiles = files.filter(isTestFile);
  return {
    root,
    files_total: files.length,
    links,
    tree: renderTree(files, { maxEntries: options.maxTreeEntries, maxDepth: options.maxDepth, links }),
    languages: languageShares(files),
    manifests: manifests.map((parsed) => parsed.manifest),
    entry_points: findEntryPoints(
      files,
      manifests.flatMap((parsed) => parsed.entries),
    ),
    tests: {
      dirs: testDirs(testFiles),
      files: testFiles.length,
      frameworks: detectTestFrameworks(manifests, files, testFiles),
    },
  };
}
