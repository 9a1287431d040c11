// Issue #37: the classification of a check's end, over what real commands print when something is missing
// (run here, not written out by hand), and over what they print when the code is wrong.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CheckRun, classifyCheck } from '../../src/checks/classify-check.ts';
import { tempDir } from '../harness.ts';

/** Runs `program args` in `dir` as a check would be seen: its exit code and its output (stdout, then stderr). */
function run(dir: string, program: string, args: string[]): CheckRun {
  const result = spawnSync(program, args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: '' },
  });
  if (result.error) throw result.error;
  return { exitCode: result.status, output: `${result.stdout}${result.stderr}` };
}

const node = process.execPath;

describe('classifyCheck over real command output', () => {
  const dir = tempDir('classify');

  test('a missing program through bash and sh: exit 127, the command named', () => {
    const bash = run(dir, 'bash', ['-c', 'keel-no-such-tool --version']);
    expect(bash.exitCode).toBe(127);
    expect(classifyCheck(bash)).toEqual({
      outcome: 'environment',
      reason: 'command `keel-no-such-tool` not found',
    });
    const sh = run(dir, 'sh', ['-c', 'keel-no-such-tool run']);
    expect(classifyCheck(sh)).toEqual({
      outcome: 'environment',
      reason: 'command `keel-no-such-tool` not found',
    });
  });

  test('npm running a script whose program is not installed, and a script that is not there', () => {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'app', scripts: { test: 'keel-no-such-runner run' } }),
    );
    const missingProgram = run(dir, 'npm', ['test']);
    expect(classifyCheck(missingProgram)).toEqual({
      outcome: 'environment',
      reason: 'command `keel-no-such-runner` not found',
    });
    const missingScript = run(dir, 'npm', ['run', 'lint']);
    expect(classifyCheck(missingScript)).toEqual({
      outcome: 'environment',
      reason: 'script `lint` is not in package.json',
    });
  });

  test("Node: a package that is not installed is the environment's, a file the code names is the code's", () => {
    const cjs = run(dir, node, ['-e', "require('nope')"]);
    expect(classifyCheck(cjs)).toEqual({ outcome: 'environment', reason: 'Node module `nope` not found' });
    const esm = run(dir, node, ['--input-type=module', '-e', "import 'nope-esm';"]);
    expect(classifyCheck(esm)).toEqual({
      outcome: 'environment',
      reason: 'Node module `nope-esm` not found',
    });
    const relative = run(dir, node, ['-e', "require('./lib/nope')"]);
    expect(relative.output).toContain("Cannot find module './lib/nope'");
    expect(classifyCheck(relative)).toEqual({ outcome: 'failed', reason: null });
  });

  test("Python: a module that is not installed is the environment's; one of the repository's own is the code's", () => {
    const missing = run(dir, 'python3', ['-c', 'import nope']);
    expect(classifyCheck(missing)).toEqual({
      outcome: 'environment',
      reason: 'Python module `nope` not found',
    });
    const asModule = run(dir, 'python3', ['-m', 'keel_no_such_tool']);
    expect(classifyCheck(asModule)).toEqual({
      outcome: 'environment',
      reason: 'Python module `keel_no_such_tool` not found',
    });
    mkdirSync(join(dir, 'shop'), { recursive: true });
    writeFileSync(join(dir, 'shop', '__init__.py'), '');
    const own = run(dir, 'python3', ['-c', 'import shop.cart']);
    expect(own.output).toContain("No module named 'shop.cart'");
    const isOwn = (name: string) => name === 'shop';
    expect(classifyCheck(own, { ownModule: isOwn })).toEqual({ outcome: 'failed', reason: null });
  });

  test('make: a target that is not there', () => {
    writeFileSync(join(dir, 'Makefile'), 'build:\n\t@echo built\n');
    expect(classifyCheck(run(dir, 'make', ['test']))).toEqual({
      outcome: 'environment',
      reason: 'Makefile target `test` not found',
    });
  });

  test("a check that says no is the change's: a failed assertion, a test printing 'not found', a timeout", () => {
    const assertion = run(dir, node, ['-e', "require('node:assert').equal(1, 2, 'user: not found')"]);
    expect(assertion.exitCode).toBe(1);
    expect(classifyCheck(assertion)).toEqual({ outcome: 'failed', reason: null });
    const printed = run(dir, 'sh', ['-c', "echo 'GET /users/7: not found'; exit 1"]);
    expect(classifyCheck(printed)).toEqual({ outcome: 'failed', reason: null });
    expect(classifyCheck({ exitCode: null, output: 'The command timed out after 1 s' })).toEqual({
      outcome: 'failed',
      reason: null,
    });
    expect(classifyCheck(run(dir, 'true', []))).toEqual({ outcome: 'passed', reason: null });
  });

  test('a command refused before it ran, and an exit 126', () => {
    expect(
      classifyCheck({
        exitCode: null,
        output: 'Command refused: …',
        refused: 'refused by the command policy',
      }),
    ).toEqual({ outcome: 'environment', reason: 'refused by the command policy' });
    writeFileSync(join(dir, 'not-executable.sh'), 'echo hi\n');
    const denied = run(dir, 'sh', ['-c', './not-executable.sh']);
    expect(denied.exitCode).toBe(126);
    expect(classifyCheck(denied)).toEqual({
      outcome: 'environment',
      reason: 'a command could not be run (exit code 126)',
    });
  });
});
