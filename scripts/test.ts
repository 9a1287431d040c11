// Runs the whole Vitest suite and ends with one plain line, "tests: N passed, N failed, N skipped",
// that CI reads to know tests really ran. Extra arguments go to vitest (a file filter, say).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const results = '.vitest-results.json';
rmSync(results, { force: true });
const run = spawnSync(
  'vitest',
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)],
  { stdio: 'inherit', shell: false },
);

let summary = 'tests: 0 passed, 0 failed, 0 skipped';
try {
  const json = JSON.parse(readFileSync(results, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  summary = `tests: ${json.numPassedTests} passed, ${json.numFailedTests} failed, ${json.numPendingTests + json.numTodoTests} skipped`;
} catch {
  summary = 'tests: 0 passed, 1 failed (vitest wrote no results)';
}
console.log(`\n${summary}`);
process.exit(run.status ?? 1);
