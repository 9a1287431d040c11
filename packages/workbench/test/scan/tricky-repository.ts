// A repository made to exercise every rule of the scan at once: test files of each language by name and
// by folder, conventional entry points at every depth, framework config files, manifests, upper-case and
// doubled extensions, names that are only an extension, links (to a file, to a folder, and a tracked folder
// the working tree turned into a link), a deleted file and untracked files. `scan-equivalence.test.ts`
// holds the scan of it to what the scan answered before it was rewritten as one pass (issue #44).
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createTempGitRepo, type TempGitRepo } from '@keel/testkit';

const folders = [
  '',
  'src',
  'app',
  'lib',
  'bin',
  'server',
  'cmd',
  'cmd/tool',
  'tools/cmd/x',
  'src/bin',
  'crates/core/src',
  'crates/core/src/bin',
  'src/main/java',
  'src/main/java/com/acme',
  'src/main/kotlin/acme',
  'test',
  'tests/unit',
  'pkg/__tests__',
  'spec',
  'pkg/e2e/deep',
  'a/b/c/d',
  'a/b/c/d/e',
  'testing',
  'Test',
  'x/specs/y',
  'docs',
];

const names = [
  'index.ts',
  'main.go',
  'main.rs',
  'lib.rs',
  'tool.rs',
  '.rs',
  'App.tsx',
  'app.py',
  'server.js',
  'cli.mjs',
  'main.PY',
  '__main__.py',
  'manage.py',
  'FooApplication.java',
  'Application.kt',
  'Application.java',
  'foo.test.ts',
  'foo.spec.js',
  '.test.ts',
  'test_foo.py',
  'test_.py',
  'foo_test.py',
  'foo_test.go',
  'FooTest.java',
  'FooTests.kt',
  'FooIT.scala',
  'foo_spec.rb',
  'FooTest.php',
  'x.TEST.ts',
  'test_x.PY',
  'Makefile',
  'Dockerfile',
  'Rakefile',
  'index',
  'main.',
  'README.md',
  'data.json',
  'vitest.config.ts',
  'jest.config.js',
  'conftest.py',
  'pytest.ini',
  'phpunit.xml.dist',
  '.rspec',
  '.mocharc.yml',
  'karma.conf.js',
  'BAR.TS',
  'noext',
  '.hidden',
  'a.b.c.ts',
  'style.SCSS',
  'x.csproj',
  'requirements-dev.txt',
];

/** Manifests (with what they declare), at the root and deeper. */
const manifests: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'tricky',
    main: 'lib/index.ts',
    bin: { t: './bin/cli.mjs', gone: './bin/missing.js' },
    scripts: { test: 'vitest run', lint: 'biome check', start: 'node .' },
    devDependencies: { vitest: '^3', mocha: '^10' },
  }),
  'crates/core/Cargo.toml': '[package]\nname = "core"\n\n[dependencies]\nserde = "1"\n',
  'requirements.txt': 'pytest==8\nrequests\n',
  'go.mod': 'module example.com/tricky\n\ngo 1.22\n',
  'src/main/pom.xml': '<project><artifactId>acme</artifactId></project>\n',
};

/** Every path of the repository's commit, with its content. */
export function trickyFiles(): Record<string, string> {
  const files: Record<string, string> = { ...manifests, '.gitignore': 'ignored/\n*.log\n' };
  for (const folder of folders) {
    for (const name of names) files[folder ? `${folder}/${name}` : name] ??= `${folder}/${name}\n`;
  }
  files['linked/inside.py'] = 'print(1)\n';
  files['deleted/gone.ts'] = 'export {};\n';
  return files;
}

/** The repository, committed, then changed in its working tree (links, a deletion, untracked files). */
export async function createTrickyRepository(outside: string): Promise<TempGitRepo> {
  const repo = await createTempGitRepo({ files: trickyFiles() });
  // A tracked folder turned into a link, a link to a file and one to a folder, a deleted file.
  rmSync(join(repo.path, 'linked'), { recursive: true });
  symlinkSync(outside, join(repo.path, 'linked'));
  symlinkSync(join(outside, 'secret.txt'), join(repo.path, 'src', 'secret.ts'));
  symlinkSync(outside, join(repo.path, 'lib', 'outside'));
  rmSync(join(repo.path, 'deleted', 'gone.ts'));
  // Untracked and ignored files.
  for (const path of ['untracked/new.test.ts', 'src/untracked.go', 'ignored/x.ts', 'debug.log']) {
    mkdirSync(dirname(join(repo.path, path)), { recursive: true });
    writeFileSync(join(repo.path, path), '\n');
  }
  return repo;
}
