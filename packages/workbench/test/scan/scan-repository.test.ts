import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { WorkbenchError } from '../../src/errors.ts';
import { scanRepository, scanToMarkdown } from '../../src/scan/index.ts';

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const packageJson = {
  name: '@acme/tool',
  main: 'dist/index.js',
  bin: { tool: './bin/tool.js' },
  scripts: { build: 'tsc', test: 'vitest run' },
  dependencies: { zod: '^4' },
  devDependencies: { typescript: '^5', vitest: '^3' },
};

describe('scanRepository', () => {
  test('a TypeScript/npm repository with vitest and a bin; ignored files never appear', async () => {
    await using repo = await createTempGitRepo({
      files: {
        '.gitignore': 'dist/\nnode_modules/\n*.log\n',
        'package.json': JSON.stringify(packageJson, null, 2),
        'bin/tool.js': "import '../src/index.ts';\n",
        'src/index.ts': 'export const main = () => 1;\n',
        'src/util.ts': 'export const add = (a: number, b: number) => a + b;\n',
        'test/util.test.ts': "import { test } from 'vitest';\n",
        'vitest.config.ts': 'export default {};\n',
        'README.md': '# tool\n',
      },
    });
    await writeFiles(repo.path, {
      'src/extra.ts': 'export {};\n',
      'dist/index.js': 'built\n',
      'node_modules/zod/index.js': 'dep\n',
      'debug.log': 'noise\n',
    });

    const scan = await scanRepository(repo.path);

    expect(scan.root).toBe(repo.path);
    expect(scan.files_total).toBe(9);
    expect(scan.languages).toEqual([
      { language: 'TypeScript', files: 5, percent: 83.3 },
      { language: 'JavaScript', files: 1, percent: 16.7 },
    ]);
    expect(scan.manifests).toEqual([
      {
        path: 'package.json',
        kind: 'npm',
        name: '@acme/tool',
        scripts: { build: 'tsc', test: 'vitest run' },
        dependencies: ['zod', 'typescript', 'vitest'],
      },
    ]);
    expect(scan.entry_points).toEqual(['bin/tool.js', 'src/index.ts']);
    expect(scan.tests).toEqual({ dirs: ['test'], files: 1, frameworks: ['vitest'] });
    expect(scan.tree.split('\n')).toEqual([
      'bin/ (1 file)',
      '  tool.js',
      'src/ (3 files)',
      '  extra.ts',
      '  index.ts',
      '  util.ts',
      'test/ (1 file)',
      '  util.test.ts',
      '.gitignore',
      'README.md',
      'package.json',
      'vitest.config.ts',
    ]);
    expect(JSON.stringify(scan)).not.toMatch(/dist\/|node_modules|debug\.log/);
  });

  test('a Python repository with pyproject and pytest tests', async () => {
    await using repo = await createTempGitRepo({
      files: {
        '.gitignore': '__pycache__/\n.venv/\n',
        'pyproject.toml': [
          '[project]',
          'name = "acme-app"  # the distribution',
          'dependencies = [',
          '  "requests>=2.31",',
          '  "click",  # CLI',
          ']',
          'description = """A multi-line',
          'description with name = "not-this" inside"""',
          '',
          '[project.optional-dependencies]',
          'dev = ["pytest>=8", "ruff"]',
          '',
          '[project.scripts]',
          'acme = "app.cli:main"',
          '',
          '[tool.pytest.ini_options]',
          'testpaths = ["tests"]',
          '',
        ].join('\n'),
        'src/app/__init__.py': '',
        'src/app/__main__.py': 'from app.cli import main\nmain()\n',
        'src/app/cli.py': 'def main():\n    pass\n',
        'tests/test_cli.py': 'def test_main():\n    pass\n',
        'tests/conftest.py': '',
      },
    });
    await writeFiles(repo.path, { '.venv/lib/site.py': '', 'src/app/__pycache__/cli.cpython-312.pyc': '' });

    const scan = await scanRepository(repo.path);

    expect(scan.files_total).toBe(7);
    expect(scan.languages).toEqual([{ language: 'Python', files: 5, percent: 100 }]);
    expect(scan.manifests).toEqual([
      {
        path: 'pyproject.toml',
        kind: 'python',
        name: 'acme-app',
        scripts: { acme: 'app.cli:main' },
        dependencies: ['requests', 'click', 'pytest', 'ruff'],
      },
    ]);
    expect(scan.entry_points).toEqual(['src/app/__main__.py']);
    expect(scan.tests).toEqual({ dirs: ['tests'], files: 2, frameworks: ['pytest'] });
    expect(scan.tree).not.toMatch(/\.venv|__pycache__/);
  });

  test('a Go repository with a cmd/ binary and tests beside the code', async () => {
    await using repo = await createTempGitRepo({
      files: {
        'go.mod': [
          'module github.com/acme/svc',
          '',
          'go 1.22',
          '',
          'require (',
          '\tgithub.com/spf13/cobra v1.8.0',
          '\tgolang.org/x/sys v0.20.0 // indirect',
          ')',
          '',
          'require github.com/stretchr/testify v1.9.0',
          '',
        ].join('\n'),
        'cmd/svc/main.go': 'package main\n\nfunc main() {}\n',
        'internal/store/store.go': 'package store\n',
        'internal/store/store_test.go': 'package store\n',
      },
    });

    const scan = await scanRepository(repo.path);

    expect(scan.languages).toEqual([{ language: 'Go', files: 3, percent: 100 }]);
    expect(scan.manifests).toEqual([
      {
        path: 'go.mod',
        kind: 'go',
        name: 'github.com/acme/svc',
        dependencies: ['github.com/spf13/cobra', 'github.com/stretchr/testify'],
      },
    ]);
    expect(scan.entry_points).toEqual(['cmd/svc/main.go']);
    expect(scan.tests).toEqual({ dirs: ['internal/store'], files: 1, frameworks: ['go test'] });
  });

  test('a folder that is not a repository is walked, skipping .git-like and dependency folders', async () => {
    await using dir = await createTempDir();
    await writeFiles(dir.path, {
      'main.py': 'print(1)\n',
      'node_modules/x/index.js': '',
      '.venv/lib/site.py': '',
      'lib/helper.py': '',
    });
    const scan = await scanRepository(dir.path);
    expect(scan.files_total).toBe(2);
    expect(scan.entry_points).toEqual(['main.py']);
    expect(scan.tree).toBe('lib/ (1 file)\n  helper.py\nmain.py');
  });

  test('bounds the tree by entries and depth', async () => {
    await using dir = await createTempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`a/b/c/file-${String(i).padStart(2, '0')}.ts`] = '';
    await writeFiles(dir.path, files);

    const shallow = await scanRepository(dir.path, { maxDepth: 2 });
    expect(shallow.tree).toBe('a/ (30 files)\n  b/ (30 files)');

    const small = await scanRepository(dir.path, { maxTreeEntries: 5 });
    const lines = small.tree.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toMatch(/^… \d+ more entries not shown$/);

    const wide = await scanRepository(dir.path);
    expect(wide.tree).toContain('      … 5 more');
    expect(wide.tree).not.toContain('file-29.ts');
  });

  test('a missing folder is SCAN_FAILED (422)', async () => {
    await using dir = await createTempDir();
    const error = await scanRepository(join(dir.path, 'missing')).catch((reason: unknown) => reason);
    expect(WorkbenchError.is(error) && error.code === 'SCAN_FAILED' && error.status === 422).toBe(true);
  });
});

describe('scanToMarkdown', () => {
  test('renders every section with the facts of the scan', async () => {
    await using repo = await createTempGitRepo({
      files: { 'package.json': JSON.stringify(packageJson), 'src/index.ts': '', 'test/a.test.ts': '' },
    });
    const markdown = scanToMarkdown(await scanRepository(repo.path));
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      `# Repository scan of \`${repo.path}\``,
      '## Languages',
      '## Manifests',
      '## Entry points',
      '## Tests',
      '## Tree',
    ]);
    expect(markdown).toContain('- TypeScript: 2 files (100%)');
    expect(markdown).toContain('- `package.json` (npm): @acme/tool');
    expect(markdown).toContain('`test` → `vitest run`');
    expect(markdown).toContain('Dependencies: zod, typescript, vitest');
    expect(markdown).toContain('- `src/index.ts`');
    expect(markdown).toContain('- Frameworks: vitest');
    expect(markdown).toContain(
      '```text\nsrc/ (1 file)\n  index.ts\ntest/ (1 file)\n  a.test.ts\npackage.json\n```',
    );
  });
});
