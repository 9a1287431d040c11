// Issue #44: the scan became one pass over the paths (by folder, rules looked up by extension and name) and
// looks at the working tree with a readdir per folder instead of an lstat per path. Its answers must not
// change: `fixtures/tricky-scan.json` holds what the scan and each of its rules answered before, for a
// repository made to hit every rule (`tricky-repository.ts`), and this test holds the new code to it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { entryPoints } from '../../src/scan/entry-points.ts';
import { scanRepository } from '../../src/scan/index.ts';
import { languageShares } from '../../src/scan/languages.ts';
import { pathFacts } from '../../src/scan/path-facts.ts';
import { groupByFolder } from '../../src/scan/paths-by-folder.ts';
import { detectTestFrameworks } from '../../src/scan/test-frameworks.ts';
import { testDirs } from '../../src/scan/test-layout.ts';
import { renderTree } from '../../src/scan/tree.ts';
import { createTrickyRepository, trickyFiles } from './tricky-repository.ts';

const before = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'tricky-scan.json'), 'utf8'));

describe('the one-pass scan answers what the scan answered before (issue #44)', () => {
  test('a whole scan of the repository: files, links, languages, manifests, entries, tests, tree', async () => {
    await using outside = await createTempDir();
    writeFileSync(join(outside.path, 'secret.txt'), 'x');
    await using repo = await createTrickyRepository(outside.path);
    const relative = (scan: unknown) => JSON.parse(JSON.stringify(scan).replaceAll(repo.path, '<root>'));

    expect(relative(await scanRepository(repo.path))).toEqual(before.scan);
    expect(relative(await scanRepository(repo.path, { maxTreeEntries: 100_000, maxDepth: 10 }))).toEqual(
      before.scan_wide,
    );
  });

  test('each rule over every path: languages, test files and folders, entry points, frameworks, tree', () => {
    const paths = Object.keys(trickyFiles());
    const links = ['src/secret.ts', 'lib/outside', 'linked'];
    const files = groupByFolder(paths);
    const facts = pathFacts(files);
    const exists = (path: string) => paths.includes(path);

    expect(languageShares(facts.languages)).toEqual(before.paths.languages);
    expect(facts.tests.files).toBe(before.paths.test_files.length);
    expect(testDirs(facts.tests.named, facts.tests.beside)).toEqual(before.paths.test_dirs);
    // Entry points folder by folder: the whole list is cut at 40.
    const byFolder = [...files].map(([folder, names]) => {
      const one = pathFacts(new Map([[folder, names]]));
      return [folder, entryPoints(one.entries, [], exists)];
    });
    expect(Object.fromEntries(byFolder)).toEqual(before.paths.entry_points_by_folder);
    expect(
      entryPoints(facts.entries, ['lib/index.ts', 'bin/missing.js', 'docs/main.go', 'main.go'], exists),
    ).toEqual(before.paths.entry_points_named);
    expect(detectTestFrameworks([], facts.configFrameworks, facts.tests.kinds)).toEqual(
      before.paths.frameworks_from_files,
    );
    expect(renderTree(files, { links })).toEqual(before.paths.tree);
    expect(renderTree(files, { links, maxEntries: 100_000, maxDepth: 10 })).toEqual(before.paths.tree_wide);
  });

  test('the test files themselves, one by one', () => {
    const paths = Object.keys(trickyFiles());
    const testFiles: string[] = [];
    for (const path of paths) {
      const facts = pathFacts(groupByFolder([path]));
      if (facts.tests.files === 1) testFiles.push(path);
    }
    expect(testFiles).toEqual(before.paths.test_files);
  });
});
