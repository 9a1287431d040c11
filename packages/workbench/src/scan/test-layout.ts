import { languageOf } from './languages.ts';

const testFolderNames = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'testing']);
const testFileName =
  /\.(test|spec)\.[^.]+$|^test_.+\.py$|_test\.(py|go)$|(Test|Tests|IT)\.(java|kt|scala)$|_spec\.rb$|Test\.php$/;
const maxDirs = 20;

/** True for a source file that is a test: by its name, or by living in a test folder. */
export function isTestFile(path: string): boolean {
  if (!languageOf(path)) return false;
  const parts = path.split('/');
  return (
    testFileName.test(parts.at(-1) ?? '') || parts.slice(0, -1).some((part) => testFolderNames.has(part))
  );
}

/**
 * The folders holding tests: the outermost folders named test/tests/__tests__/spec/..., or, when tests sit
 * beside the code (Go, colocated *.test.ts), the folders of the test files. At most 20.
 */
export function testDirs(testFiles: readonly string[]): string[] {
  const named = new Set<string>();
  for (const file of testFiles) {
    const parts = file.split('/');
    const index = parts.slice(0, -1).findIndex((part) => testFolderNames.has(part));
    if (index >= 0) named.add(parts.slice(0, index + 1).join('/'));
  }
  if (named.size > 0) return [...named].sort().slice(0, maxDirs);
  const beside = testFiles.map((file) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.'));
  return [...new Set(beside)].sort().slice(0, maxDirs);
}
