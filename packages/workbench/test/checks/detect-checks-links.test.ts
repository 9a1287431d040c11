// Issue #36, item 3: the checks detection reads a repository's manifests; one that is a symbolic link to
// a file outside (`package.json -> ~/.config/tokens.json`) gives no check, and a linked folder (`tests -> /`)
// counts as absent.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { detectChecks } from '../../src/checks/detect-checks.ts';

/** A folder outside the repository holding one manifest-shaped file per name. */
function outsideFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'secret', scripts: { test: 'x', lint: 'x', build: 'x' } }),
    Makefile: 'test:\n\ttrue\nlint:\n\ttrue\n',
    GNUmakefile: 'test:\n\ttrue\n',
    'pyproject.toml': '[tool.pytest.ini_options]\n[tool.ruff]\n[tool.mypy]\n',
    'Cargo.toml': '[package]\nname = "secret"\n',
    'go.mod': 'module example.com/secret\n',
    'pytest.ini': '[pytest]\n',
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  mkdirSync(join(dir, 'tests'));
  return files;
}

describe('detectChecks over links', () => {
  test('a manifest that is a link gives no check: package.json, pyproject.toml, Cargo.toml, go.mod', async () => {
    await using outside = await createTempDir();
    await using repo = await createTempDir();
    outsideFiles(outside.path);
    for (const name of ['package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'pytest.ini']) {
      symlinkSync(join(outside.path, name), join(repo.path, name));
    }
    expect(await detectChecks(repo.path)).toEqual([]);
  });

  test('a linked makefile is the one make would use: none of its targets is read, no later one is tried', async () => {
    await using outside = await createTempDir();
    await using repo = await createTempDir();
    outsideFiles(outside.path);
    symlinkSync(join(outside.path, 'GNUmakefile'), join(repo.path, 'GNUmakefile'));
    writeFileSync(join(repo.path, 'Makefile'), 'build:\n\ttrue\n');
    expect(await detectChecks(repo.path)).toEqual([]);
  });

  test('a linked tests/ folder or pytest.ini is no sign of pytest; a linked lockfile chooses no runner', async () => {
    await using outside = await createTempDir();
    await using repo = await createTempDir();
    outsideFiles(outside.path);
    writeFileSync(join(repo.path, 'pyproject.toml'), '[project]\nname = "app"\n');
    symlinkSync(join(outside.path, 'tests'), join(repo.path, 'tests'));
    symlinkSync(join(outside.path, 'pytest.ini'), join(repo.path, 'tox.ini'));
    writeFileSync(join(repo.path, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    symlinkSync(join(outside.path, 'package.json'), join(repo.path, 'pnpm-lock.yaml'));
    expect(await detectChecks(repo.path)).toEqual([
      { name: 'test', command: 'npm test', source: 'package.json scripts.test' },
    ]);
  });

  test('the same files, real and in the repository, are found (the links alone made the difference)', async () => {
    await using repo = await createTempDir();
    outsideFiles(repo.path);
    expect((await detectChecks(repo.path)).map((check) => check.command)).toEqual([
      'npm test',
      'npm run lint',
      'mypy .',
      'npm run build',
    ]);
  });
});
