import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import { isGitRepository, listTrackedAndUntracked } from '../git/index.ts';
import { offLoop } from '../off-loop/index.ts';
import { entryPoints } from './entry-points.ts';
import { languageShares } from './languages.ts';
import { LinkSeparator, type SeparatedFiles } from './links.ts';
import { readManifests } from './manifests/read-manifests.ts';
import { addPathFacts, noPathFacts, type PathFacts, pathFacts } from './path-facts.ts';
import { countPaths, groupByFolder, type PathsByFolder } from './paths-by-folder.ts';
import { detectTestFrameworks } from './test-frameworks.ts';
import { testDirs } from './test-layout.ts';
import { renderTree } from './tree.ts';
import type { RepositoryScan } from './types.ts';
import { walkFiles } from './walk-files.ts';

export interface ScanOptions {
  maxTreeEntries?: number;
  maxDepth?: number;
}

/**
 * Scans a repository for knowledge generation: its files (through git, so .gitignore is honoured; a plain
 * walk for a folder that is no repository), languages, manifests, entry points, tests and a bounded tree.
 * Symbolic links are named (in `links` and the tree) but never read or walked through.
 *
 * It runs in the workbench's worker thread: listing, looking at and classifying 100,000 paths takes the
 * better part of a second of CPU, which the service's event loop must not wait for (issue #44).
 */
export const scanRepository: (dir: string, options?: ScanOptions) => Promise<RepositoryScan> = offLoop(
  import.meta.url,
  'scanRepositoryHere',
  scanRepositoryHere,
);

/** `scanRepository` on the calling thread (the worker's); its synchronous steps hold that thread. */
export async function scanRepositoryHere(dir: string, options: ScanOptions = {}): Promise<RepositoryScan> {
  const root = resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory())
    throw new WorkbenchError('SCAN_FAILED', `cannot scan ${root}: it is not a folder`);
  const { files, links, facts } = await ownFiles(root);
  const manifests = await readManifests(root, facts.manifests);
  return {
    root,
    files_total: countPaths(files),
    links,
    tree: renderTree(files, { maxEntries: options.maxTreeEntries, maxDepth: options.maxDepth, links }),
    languages: languageShares(facts.languages),
    manifests: manifests.map((parsed) => parsed.manifest),
    entry_points: entryPoints(
      facts.entries,
      manifests.flatMap((parsed) => parsed.entries),
      ownFileCheck(files),
    ),
    tests: {
      dirs: testDirs(facts.tests.named, facts.tests.beside),
      files: facts.tests.files,
      frameworks: detectTestFrameworks(manifests, facts.configFrameworks, facts.tests.kinds),
    },
  };
}

/** As `listFiles` lists them at most. */
const maxFiles = 200_000;

/**
 * The files of the repository (its links apart) and what their names say: git's listing, or a walk of a
 * folder that is no repository. Tracked paths the working tree lost are dropped with the links, so git need
 * not look for them; and the tracked paths are looked at and classified while git still walks the working
 * tree for the untracked ones.
 */
async function ownFiles(root: string): Promise<SeparatedFiles & { facts: PathFacts }> {
  const separator = new LinkSeparator(root);
  const facts = noPathFacts();
  const add = (paths: readonly string[]) => addPathFacts(facts, separator.add(groupByFolder(paths)));
  const listing = listTrackedAndUntracked(root);
  // Awaited below, or not at all for a folder that is no repository.
  listing.untracked.catch(() => {});
  let tracked: string[];
  try {
    tracked = await listing.tracked;
  } catch (error) {
    // Git listed nothing: a folder that is no repository is walked instead.
    if (await isGitRepository(root)) throw error;
    add(await walkFiles(root));
    return { ...separator.result(), facts };
  }
  add(tracked);
  const untracked = await listing.untracked;
  if (tracked.length + untracked.length > maxFiles) {
    // Past the bound, as `listFiles` did: the untracked files first.
    const bounded = new LinkSeparator(root);
    const files = bounded.add(groupByFolder([...untracked, ...tracked].slice(0, maxFiles)));
    return { ...bounded.result(), facts: pathFacts(files) };
  }
  add(untracked);
  return { ...separator.result(), facts };
}

/** Whether a path is one of the repository's own files (a manifest may name one that is not). */
function ownFileCheck(files: PathsByFolder): (path: string) => boolean {
  const namesIn = new Map<string, Set<string>>();
  return (path) => {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    let names = namesIn.get(folder);
    if (!names) {
      names = new Set(files.get(folder));
      namesIn.set(folder, names);
    }
    return names.has(slash < 0 ? path : path.slice(slash + 1));
  };
}
