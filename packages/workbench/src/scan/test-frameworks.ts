import type { ParsedManifest } from './types.ts';

// Dependency name → framework. Exact names, or a prefix ending in ':' for Maven/Gradle coordinates.
const byDependency = new Map(
  Object.entries({
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
  }),
);
const byCoordinatePrefix = [...byDependency].filter(([key]) => key.endsWith(':'));

// Config file name (without its extension) → framework.
const byConfigFile = new Map(
  Object.entries({
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
  }),
);

function fromDependency(dependency: string): string | undefined {
  const name = dependency.toLowerCase();
  return byDependency.get(name) ?? byCoordinatePrefix.find(([key]) => name.startsWith(key))?.[1];
}

/**
 * The framework a config file reveals (`vitest.config.ts`, `phpunit.xml.dist`, `.rspec`...), by its name,
 * `dot` being the index of its last '.' (-1 for none).
 */
export function configFramework(name: string, dot: number): string | undefined {
  return (
    byConfigFile.get(name) ??
    (dot >= 0 && dot < name.length - 1 ? byConfigFile.get(name.slice(0, dot)) : undefined) ??
    (name.endsWith('.dist') ? byConfigFile.get(name.slice(0, -'.dist'.length)) : undefined)
  );
}

/** What the test files say about their runner: Go's, Rust's or Python's own. */
export interface TestFileKinds {
  go: boolean;
  rust: boolean;
  python: boolean;
}

/** Test frameworks from manifests' dependencies and hints, config files, and the test files themselves. */
export function detectTestFrameworks(
  manifests: readonly ParsedManifest[],
  fromConfigFiles: ReadonlySet<string>,
  testFiles: TestFileKinds,
): string[] {
  const found = new Set<string>();
  for (const parsed of manifests) {
    for (const framework of parsed.frameworks) found.add(framework);
    for (const dependency of parsed.manifest.dependencies) {
      const framework = fromDependency(dependency);
      if (framework) found.add(framework);
    }
  }
  for (const framework of fromConfigFiles) found.add(framework);
  if (testFiles.go) found.add('go test');
  if (testFiles.rust && manifests.some((parsed) => parsed.manifest.kind === 'rust')) found.add('cargo test');
  if (testFiles.python && !found.has('pytest')) found.add('unittest');
  return [...found].sort();
}
