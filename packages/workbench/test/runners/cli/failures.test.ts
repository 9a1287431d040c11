import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CliRunner, codexAdapter, cursorAdapter } from '../../../src/runners/cli/index.ts';
import type { RunnerRequest } from '../../../src/runners/index.ts';
import { writeFakeAgent } from './fake-agent.ts';
import { bareEnv, collect, configOf, secretKey } from './harness.ts';

let dir: Awaited<ReturnType<typeof createTempDir>>;
let repo: Awaited<ReturnType<typeof createTempGitRepo>>;
beforeAll(async () => {
  dir = await createTempDir();
  repo = await createTempGitRepo();
});
afterAll(async () => {
  await repo.remove();
  await dir.remove();
});

function request(binary: string | undefined, extra: Partial<RunnerRequest> = {}): RunnerRequest {
  return {
    prompt: 'Do it',
    workdir: repo.path,
    model: { model: 'mock-model', apiKey: secretKey },
    mcpServers: [],
    skillDirs: [],
    config: configOf('cursor', binary ? { binary_path: binary } : {}),
    signal: new AbortController().signal,
    ...extra,
  };
}

const runner = () => new CliRunner(cursorAdapter, { env: bareEnv(), homesDir: join(dir.path, 'homes') });

describe('a command-line runner when the agent goes wrong', () => {
  test('a missing program is a failed outcome naming where it looked, and check says unusable', async () => {
    const empty = new CliRunner(codexAdapter, {
      env: { PATH: dir.path },
      agentsDir: join(dir.path, 'agents'),
    });
    const { events, outcome } = await collect(empty, { ...request(undefined), config: configOf('codex') });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('RUNNER_BINARY_NOT_FOUND');
    expect(outcome.error?.message).toContain("'codex' not found on PATH or");
    expect(events).toEqual([{ type: 'error', error: outcome.error }]);
    expect(await empty.check(configOf('codex'))).toMatchObject({ kind: 'codex', usable: false });
    const wrongPath = await runner().check(configOf('cursor', { binary_path: join(dir.path, 'nope') }));
    expect(wrongPath.reason).toContain('is not an executable file');
  });

  test('check runs --version and answers the version', async () => {
    const binary = await writeFakeAgent(dir.path, 'versioned', 'process.exit(0);');
    expect(await runner().check(configOf('cursor', { binary_path: binary }))).toEqual({
      kind: 'cursor',
      usable: true,
      version: '1.2.3',
    });
  });

  // The key is scrubbed once, by the session runner, for every runner (test/sessions/secret-scrub.test.ts).
  test('a non-zero exit is a failed outcome with the last stderr lines', async () => {
    const binary = await writeFakeAgent(
      dir.path,
      'exits-1',
      `console.error('starting');\nconsole.error('auth failed for key ${secretKey}');\nprocess.exit(1);`,
    );
    const { events, outcome } = await collect(runner(), request(binary));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUNNER_FAILED' } });
    expect(outcome.error?.message).toBe(
      `The cursor agent exited with code 1: auth failed for key ${secretKey}`,
    );
    expect(outcome.error?.details).toMatchObject({
      exit_code: 1,
      stderr: ['starting', `auth failed for key ${secretKey}`],
    });
    expect(events).toEqual([{ type: 'error', error: outcome.error }]);
  });

  test('a program that cannot be started (its interpreter is missing) is a failed outcome, not a hang', async () => {
    const binary = join(dir.path, 'bad-shebang');
    await writeFile(binary, '#!/nonexistent/interpreter\n', { mode: 0o755 });
    const { events, outcome } = await collect(runner(), request(binary));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUNNER_FAILED' } });
    expect(outcome.error?.message).toContain('could not be started');
    expect(events).toEqual([{ type: 'error', error: outcome.error }]);
  });

  test('a home that cannot be made is a failed outcome, not a throw', async () => {
    const binary = await writeFakeAgent(dir.path, 'never-run', 'process.exit(0);');
    const file = join(dir.path, 'a-file');
    await writeFile(file, '');
    const blocked = new CliRunner(cursorAdapter, { env: bareEnv(), homesDir: join(file, 'homes') });
    const { events, outcome } = await collect(blocked, request(binary));
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'RUNNER_FAILED' } });
    expect(outcome.error?.message).toContain('could not be prepared');
    expect(events).toEqual([{ type: 'error', error: outcome.error }]);
  });

  test('a hang past the timeout kills the whole process group and fails', async () => {
    const pidFile = join(dir.path, 'grandchild.pid');
    const binary = await writeFakeAgent(
      dir.path,
      'hangs',
      [
        "emit({ type: 'system', subtype: 'init', session_id: 'hang-1' });",
        // A helper of its own (as agents start MCP servers), which must die with it.
        "const helper = child_process.spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
        `fs.writeFileSync(${JSON.stringify(pidFile)}, String(helper.pid));`,
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
    const started = Date.now();
    const { events, outcome } = await collect(
      runner(),
      request(binary, {
        config: configOf('cursor', { binary_path: binary, env: { KEEL_RUNNER_TIMEOUT_MS: '800' } }),
      }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome).toMatchObject({
      status: 'failed',
      runnerSessionId: 'hang-1',
      error: { code: 'RUNNER_TIMEOUT' },
    });
    expect(events.map((event) => event.type)).toEqual(['runner_started', 'error']);
    const helperPid = Number(await readFile(pidFile, 'utf8'));
    await expect.poll(() => isAlive(helperPid), { timeout: 3_000 }).toBe(false);
  });

  test('a line that is not JSON is an error event naming it; reading goes on and the outcome fails', async () => {
    const binary = await writeFakeAgent(
      dir.path,
      'garbled',
      [
        "emit({ type: 'system', subtype: 'init', session_id: 'garbled-1' });",
        "console.log('{not json');",
        "emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } });",
        "emit({ type: 'result', subtype: 'success', is_error: false, result: 'Done.', session_id: 'garbled-1' });",
      ].join('\n'),
    );
    const { events, outcome } = await collect(runner(), request(binary));
    expect(events.map((event) => event.type)).toEqual(['runner_started', 'error', 'message']);
    expect(events[1]).toMatchObject({
      type: 'error',
      error: { code: 'RUNNER_OUTPUT_INVALID', details: { line: 2, preview: '{not json' } },
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      runnerSessionId: 'garbled-1',
      error: { code: 'RUNNER_OUTPUT_INVALID' },
    });
  });

  test('an abort stops the agent and the outcome is cancelled', async () => {
    const binary = await writeFakeAgent(
      dir.path,
      'slow',
      "emit({ type: 'system', subtype: 'init', session_id: 'slow-1' });\nsetInterval(() => {}, 1000);",
    );
    const controller = new AbortController();
    const runnerInstance = runner();
    const done = runnerInstance.run(request(binary, { signal: controller.signal }), async (event) => {
      if (event.type === 'runner_started') controller.abort();
    });
    expect(await done).toMatchObject({ status: 'cancelled', runnerSessionId: 'slow-1' });
  });

  test('a request for another kind is a caller bug and throws', async () => {
    await expect(
      runner().run({ ...request(undefined), config: configOf('codex') }, async () => {}),
    ).rejects.toThrow("config.kind must be 'cursor'");
  });
});

/** Running (a zombie left for a container's init to reap counts as dead: it runs no more). */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
