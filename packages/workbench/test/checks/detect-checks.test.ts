import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createTempDir } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { detectChecks } from '../../src/checks/detect-checks.ts';

/** Writes `files` (path relative to `root` → content; a path ending in '/' makes a folder). */
async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const absolute = join(root, path);
    if (path.endsWith('/')) {
      await mkdir(absolute, { recursive: true });
      continue;
    }
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
  }
}

/** The checks of a fresh repository holding `files`, as `name: command (source)` lines. */
async function checksOf(files: Record<string, string>): Promise<string[]> {
  await using dir = await createTempDir();
  await writeFiles(dir.path, files);
  const checks = await detectChecks(dir.path);
  return checks.map((check) => `${check.name}: ${check.command} (${check.source})`);
}

const packageJson = (scripts: Record<string, string>): string => JSON.stringify({ name: 'app', scripts });

describe('detectChecks', () => {
  test('an empty repository has no checks', async () => {
    expect(await checksOf({})).toEqual([]);
  });

  test('a Node repository: npm scripts, with npm init’s placeholder test skipped', async () => {
    expect(
      await checksOf({
        'package.json': packageJson({
          test: 'echo "Error: no test specified" && exit 1',
          lint: 'eslint .',
          'type-check': 'tsc --noEmit',
          build: 'tsc',
          start: 'node dist/index.js',
        }),
        'package-lock.json': '{}',
      }),
    ).toEqual([
      'lint: npm run lint (package.json scripts.lint)',
      'typecheck: npm run type-check (package.json scripts.type-check)',
      'build: npm run build (package.json scripts.build)',
    ]);
    expect(await checksOf({ 'package.json': packageJson({ test: 'vitest run', tsc: 'tsc -b' }) })).toEqual([
      'test: npm test (package.json scripts.test)',
      'typecheck: npm run tsc (package.json scripts.tsc)',
    ]);
  });

  test('a pnpm repository runs its scripts with pnpm', async () => {
    expect(
      await checksOf({
        'package.json': packageJson({
          test: 'vitest',
          lint: 'biome check',
          typecheck: 'tsc',
          build: 'vite build',
        }),
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      }),
    ).toEqual([
      'test: pnpm test (package.json scripts.test)',
      'lint: pnpm run lint (package.json scripts.lint)',
      'typecheck: pnpm run typecheck (package.json scripts.typecheck)',
      'build: pnpm run build (package.json scripts.build)',
    ]);
  });

  test('a yarn repository runs its scripts with yarn', async () => {
    expect(
      await checksOf({
        'package.json': packageJson({ test: 'jest', lint: 'eslint .', build: 'webpack' }),
        'yarn.lock': '# yarn lockfile v1\n',
      }),
    ).toEqual([
      'test: yarn test (package.json scripts.test)',
      'lint: yarn lint (package.json scripts.lint)',
      'build: yarn build (package.json scripts.build)',
    ]);
  });

  test('a bun repository runs every script with bun run', async () => {
    expect(
      await checksOf({
        'package.json': packageJson({ test: 'bun test', lint: 'biome lint' }),
        'bun.lock': '{}',
      }),
    ).toEqual([
      'test: bun run test (package.json scripts.test)',
      'lint: bun run lint (package.json scripts.lint)',
    ]);
  });

  test('a Makefile repository: its test, lint and build targets, not its variables', async () => {
    const makefile = [
      'GO ?= go',
      'lint := golangci-lint',
      'lint ::= golangci-lint',
      'lint: FLAGS = -v',
      'test: FLAGS = -v',
      '.PHONY: test lint build',
      '',
      'test: deps',
      '\t$(GO) test ./...',
      '',
      'build release: deps',
      '\t$(GO) build ./...',
      '',
      'deps:',
      '\t@echo "lint: not a target"',
    ].join('\n');
    expect(await checksOf({ Makefile: makefile })).toEqual([
      'test: make test (Makefile target test)',
      'build: make build (Makefile target build)',
    ]);
  });

  test('a makefile’s check target is its test when it has no test target', async () => {
    expect(await checksOf({ makefile: 'check:\n\t./run-checks\nlint::\n\tshellcheck *.sh\n' })).toEqual([
      'test: make check (makefile target check)',
      'lint: make lint (makefile target lint)',
    ]);
    expect(await checksOf({ GNUmakefile: 'test:\n\tprove\ncheck: test\n' })).toEqual([
      'test: make test (GNUmakefile target test)',
    ]);
  });

  test('a Python repository: pytest, ruff and mypy from pyproject.toml', async () => {
    expect(
      await checksOf({
        'pyproject.toml': [
          '[project]',
          'name = "svc"',
          'dependencies = ["fastapi>=0.110"]',
          '',
          '[project.optional-dependencies]',
          'dev = ["pytest>=8; python_version > \'3.9\'", "ruff"]',
          '',
          '[tool.ruff.lint]',
          'select = ["E", "F"]',
          '',
          '[tool.mypy]',
          'strict = true',
        ].join('\n'),
      }),
    ).toEqual([
      'test: python -m pytest (pyproject.toml pytest dependency)',
      'lint: ruff check . (pyproject.toml [tool.ruff])',
      'typecheck: mypy . (pyproject.toml [tool.mypy])',
    ]);
  });

  test('pytest is also found from [tool.pytest], pytest.ini, tox.ini or a tests/ folder', async () => {
    const pyproject = '[project]\nname = "svc"\n';
    expect(
      await checksOf({ 'pyproject.toml': `${pyproject}[tool.pytest.ini_options]\naddopts = "-q"\n` }),
    ).toEqual(['test: python -m pytest (pyproject.toml [tool.pytest])']);
    expect(await checksOf({ 'pyproject.toml': pyproject, 'pytest.ini': '[pytest]\n' })).toEqual([
      'test: python -m pytest (pytest.ini)',
    ]);
    expect(await checksOf({ 'pyproject.toml': pyproject, 'tox.ini': '[tox]\n' })).toEqual([
      'test: python -m pytest (tox.ini)',
    ]);
    expect(await checksOf({ 'pyproject.toml': pyproject, 'tests/': '' })).toEqual([
      'test: python -m pytest (tests/ folder)',
    ]);
    expect(await checksOf({ 'pyproject.toml': pyproject })).toEqual([]);
  });

  test('a Rust repository: cargo test, clippy and build', async () => {
    expect(await checksOf({ 'Cargo.toml': '[package]\nname = "tool"\nversion = "0.1.0"\n' })).toEqual([
      'test: cargo test (Cargo.toml)',
      'lint: cargo clippy --all-targets (Cargo.toml)',
      'build: cargo build (Cargo.toml)',
    ]);
  });

  test('a Go repository: go test, vet and build', async () => {
    expect(await checksOf({ 'go.mod': 'module example.com/tool\n\ngo 1.22\n' })).toEqual([
      'test: go test ./... (go.mod)',
      'lint: go vet ./... (go.mod)',
      'build: go build ./... (go.mod)',
    ]);
  });

  test('a malformed file contributes nothing and the other sources still count', async () => {
    expect(
      await checksOf({
        'package.json': '{ "scripts": { "test": "jest", ',
        'pyproject.toml': '[tool.ruff\nline-length = ',
        'go.mod': 'module example.com/tool\n',
      }),
    ).toEqual([
      'test: go test ./... (go.mod)',
      'lint: go vet ./... (go.mod)',
      'build: go build ./... (go.mod)',
    ]);
    expect(
      await checksOf({
        'package.json': '["not", "a", "manifest"]',
        'Cargo.toml': '[package\nname = ',
        'go.mod': 'go 1.22\n',
      }),
    ).toEqual([]);
  });

  test('a folder where a file should be contributes nothing', async () => {
    expect(await checksOf({ 'package.json/': '', 'Makefile/': '', 'go.mod': 'module m\n' })).toEqual([
      'test: go test ./... (go.mod)',
      'lint: go vet ./... (go.mod)',
      'build: go build ./... (go.mod)',
    ]);
  });

  test('the first source wins per check, in the order test, lint, typecheck, build', async () => {
    await using dir = await createTempDir();
    await writeFiles(dir.path, {
      'package.json': packageJson({ build: 'tsc', typecheck: 'tsc --noEmit' }),
      Makefile: 'build:\n\tcargo build\nlint:\n\tcargo fmt --check\n',
      'pyproject.toml': '[tool.mypy]\nstrict = true\n',
      'Cargo.toml': '[package]\nname = "mixed"\n',
      'go.mod': 'module example.com/mixed\n',
    });
    expect(await detectChecks(dir.path)).toEqual([
      { name: 'test', command: 'cargo test', source: 'Cargo.toml' },
      { name: 'lint', command: 'make lint', source: 'Makefile target lint' },
      { name: 'typecheck', command: 'npm run typecheck', source: 'package.json scripts.typecheck' },
      { name: 'build', command: 'npm run build', source: 'package.json scripts.build' },
    ]);
  });
});
