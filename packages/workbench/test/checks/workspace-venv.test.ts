// Issue #37: a Python repository's checks run with the workspace's `.venv` (made by setup) activated, so
// `python3`, `pytest`… see what setup installed there, in the real sandbox; without one, the machine's.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runtimeCommandRunner } from '../../src/checks/index.ts';
import { runtimeSetupRunner } from '../../src/setup/index.ts';
import { tempDir } from '../harness.ts';

const hasBwrap = existsSync('/usr/bin/bwrap');

describe.skipIf(!hasBwrap)("a check and the workspace's virtualenv", () => {
  test('a module installed in .venv by setup is importable by the check', { timeout: 120_000 }, async () => {
    const home = tempDir('venv-home');
    const workspace = join(home, 'tasks', 'task_x', 'app');
    mkdirSync(join(workspace, 'vendor'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    writeFileSync(join(workspace, 'vendor', 'onlyvenv.py'), "WORD = 'from the venv'\n");
    writeFileSync(join(workspace, 'check.py'), 'import onlyvenv, sys\nprint(onlyvenv.WORD, sys.prefix)\n');
    const options = {
      runtimeDir: tempDir('venv-runtime'),
      hiddenPaths: [home],
      trustProjectConfig: () => false,
    };
    const check = runtimeCommandRunner({ ...options, env: process.env });
    const command = 'python3 check.py';

    // Before setup: the machine's python3, which does not have it.
    const before = await check.run(workspace, command, 60_000);
    expect(before.exitCode).not.toBe(0);
    expect(before.output).toContain("No module named 'onlyvenv'");

    // Setup makes the virtualenv and installs the module in it (as pip would, without a registry).
    const setup = runtimeSetupRunner({ ...options, cacheDir: join(home, 'caches') });
    const made = await setup.run(
      workspace,
      'python3 -m venv .venv && cp vendor/onlyvenv.py .venv/lib/python3*/site-packages/',
      120_000,
    );
    expect(made.exitCode, made.output).toBe(0);

    const after = await check.run(workspace, command, 60_000);
    expect(after.exitCode, after.output).toBe(0);
    expect(after.output).toContain(`from the venv ${join(workspace, '.venv')}`);
  });
});
