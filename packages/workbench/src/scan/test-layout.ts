/** Folders whose source files are tests, whatever their names. */
export const testFolderNames = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'testing']);
const maxDirs = 20;

// Test file names by their extension (case as written), each a check of the name before it (`stem`).
// Together with `.test.`/`.spec.` before any extension, the same names as the expression
// /\.(test|spec)\.[^.]+$|^test_.+\.py$|_test\.(py|go)$|(Test|Tests|IT)\.(java|kt|scala)$|_spec\.rb$|Test\.php$/,
// without running one for each of 100,000 paths.
const jvmTest = (stem: string) => stem.endsWith('Test') || stem.endsWith('Tests') || stem.endsWith('IT');
const testStemByExtension = new Map<string, (stem: string) => boolean>([
  ['py', (stem) => (stem.startsWith('test_') && stem.length > 5) || stem.endsWith('_test')],
  ['go', (stem) => stem.endsWith('_test')],
  ['java', jvmTest],
  ['kt', jvmTest],
  ['scala', jvmTest],
  ['rb', (stem) => stem.endsWith('_spec')],
  ['php', (stem) => stem.endsWith('Test')],
]);

/**
 * True for a file name that marks a test, `dot` being the index of its last '.' (-1 for none):
 * `x.test.ts`, `x.spec.js`, `test_x.py`, `x_test.py`, `x_test.go`, `XTest.java`, `XIT.kt`, `x_spec.rb`,
 * `XTest.php`...
 */
export function isTestName(name: string, dot: number): boolean {
  if (dot < 0 || dot === name.length - 1) return false;
  const stem = name.slice(0, dot);
  if (stem.endsWith('.test') || stem.endsWith('.spec')) return true;
  return testStemByExtension.get(name.slice(dot + 1))?.(stem) ?? false;
}

/**
 * The outermost folder of `folder` (or `folder` itself) named test/tests/__tests__/spec/...: where its
 * tests sit. Undefined when there is none.
 */
export function outermostTestFolder(folder: string): string | undefined {
  if (folder === '') return undefined;
  let start = 0;
  for (;;) {
    const slash = folder.indexOf('/', start);
    const end = slash < 0 ? folder.length : slash;
    if (testFolderNames.has(folder.slice(start, end))) return folder.slice(0, end);
    if (slash < 0) return undefined;
    start = slash + 1;
  }
}

/**
 * The folders holding tests: the outermost folders named test/tests/__tests__/spec/... (`named`), or, when
 * tests sit beside the code (Go, colocated *.test.ts), the folders of the test files (`beside`, '.' for the
 * root). At most 20.
 */
export function testDirs(named: ReadonlySet<string>, beside: ReadonlySet<string>): string[] {
  return [...(named.size > 0 ? named : beside)].sort().slice(0, maxDirs);
}
