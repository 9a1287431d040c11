import type { ParsedManifest } from './types.ts';

// Dependency name → framework. Exact names, or a prefix ending in ':' for Maven/Gradle coordinates.
const byDependency: Record<string, string> = {
  vitest: 'vitest',
  jest: 'jest',
  mocha: 'mocha',
  ava: 'ava',
  jasmine: 'jasmine',
  '@playwright/test': 'playwright',
  cypress: 'cypress',
  tap: 'tap',
  uvu: 'uvu',
  pytest: 'pytest',
  nose2: 'nose2',
  rspec: 'rspec',
  'rspec-rails': 'rspec',
  minitest: 'minitest',
  'phpunit/phpunit': 'phpunit',
  'pestphp/pest': 'pest',
  xunit: 'xunit',
  nunit: 'nunit',
  'mstest.testframework': 'mstest',
  'junit:junit': 'junit',
  'org.junit.jupiter:': 'junit',
  'org.testng:testng': 'testng',
  'io.kotest:': 'kotest',
};

// Config file name (without its extension) → framework.
const byConfigFile: Record<string, string> = {
  'vitest.config': 'vitest',
  'vitest.workspace': 'vitest',
  'jest.config': 'jest',
  'playwright.config': 'playwright',
  'cypress.config': 'cypress',
  '.mocharc': 'mocha',
  'karma.conf': 'karma',
  'pytest.ini': 'pytest',
  'conftest.py': 'pytest',
  'phpunit.xml': 'phpunit',
  '.rspec': 'rspec',
};

function fromDependency(dependency: string): string | undefined {
  const name = dependency.toLowerCase();
  const exact = byDependency[name];
  if (exact) return exact;
  return Object.entries(byDependency).find(([key]) => key.endsWith(':') && name.startsWith(key))?.[1];
}

function fromFile(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    byConfigFile[name] ??
    byConfigFile[name.replace(/\.[^.]+$/, '')] ??
    byConfigFile[name.replace(/\.dist$/, '')]
  );
}

/** Test frameworks from manifests' dependencies and hints, config files, and the test files themselves. */
export function detectTestFrameworks(
  manifests: readonly ParsedManifest[],
  files: readonly string[],
  testFiles: readonly string[],
): string[] {
  const found = new Set<string>();
  for (const parsed of manifests) {
    for (const framework of parsed.frameworks) found.add(framework);
    for (const dependency of parsed.manifest.dependencies) {
      const framework = fromDependency(dependency);
      if (framework) found.add(framework);
    }
  }
  for (const file of files) {
    const framework = fromFile(file);
    if (framework) found.add(framework);
  }
  if (testFiles.some((file) => file.endsWith('_test.go'))) found.add('go test');
  if (
    testFiles.some((file) => file.endsWith('.rs')) &&
    manifests.some((parsed) => parsed.manifest.kind === 'rust')
  ) {
    found.add('cargo test');
  }
  if (testFiles.some((file) => file.endsWith('.py')) && !found.has('pytest')) found.add('unittest');
  return [...found].sort();
}
