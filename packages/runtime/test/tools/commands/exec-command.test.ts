import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { describe, expect, it } from 'vitest';
import {
  createCommandPolicy,
  maxCommandOutputChars,
  type ToolAuditRecord,
} from '../../../src/tools/index.ts';
import { contextFor, runTool, tempDir } from '../helpers.ts';

const anything = createCommandPolicy({ allowedCommands: ['*'] });

async function setup(signal?: AbortSignal) {
  const work = await tempDir();
  const audit: ToolAuditRecord[] = [];
  const ctx = await contextFor(work.path, {}, signal, {
    commands: anything,
    audit: (record) => void audit.push(record),
  });
  return { work, ctx, audit };
}

/** Polls until `check` passes or the time is up: no fixed sleeps. */
async function isGone(pid: number): Promise<boolean> {
  try {
    // A zombie no one has reaped yet is dead too.
    const state = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

describe('exec_command', () => {
  it('returns stdout and stderr with the exit code, and a failing exit is a result, not an error', async () => {
    const { work, ctx, audit } = await setup();
    await using _ = work;
    const result = await runTool(ctx, 'exec_command', { command: 'echo to-out; echo to-err >&2; exit 3' });
    expect(result).toMatch(/Exit code: 3$/);
    expect(result).toContain('to-out');
    expect(result).toContain('to-err');
    expect(await runTool(ctx, 'exec_command', { command: 'true' })).toBe('(no output)\n\nExit code: 0');
    expect(audit.map((record) => [record.tool_name, record.success])).toEqual([
      ['exec_command', true],
      ['exec_command', true],
    ]);
  });

  it('runs in the workdir, or in cwd confined by the path guard', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await mkdir(join(work.path, 'sub'));
    expect(await runTool(ctx, 'exec_command', { command: 'pwd' })).toBe(`${work.path}\n\nExit code: 0`);
    expect(await runTool(ctx, 'exec_command', { command: 'pwd', cwd: 'sub' })).toBe(
      `${join(work.path, 'sub')}\n\nExit code: 0`,
    );
    await expect(runTool(ctx, 'exec_command', { command: 'pwd', cwd: '..' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(runTool(ctx, 'exec_command', { command: 'pwd', cwd: 'missing' })).rejects.toMatchObject({
      code: 'TOOL_ERROR',
      message: 'cwd missing is not an existing directory.',
    });
  });

  it('keeps the head and tail of long output and says how much was cut', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    // 10 000 lines of 10 characters, then END: 100 004 characters.
    const result = await runTool(ctx, 'exec_command', { command: 'yes abcdefghi | head -n 10000; echo END' });
    const cut = 100_004 - maxCommandOutputChars;
    expect(result).toContain(`[… ${cut} of 100004 characters cut from the middle of the output …]`);
    expect(result.startsWith('abcdefghi\nabcdefghi\n')).toBe(true);
    expect(result.endsWith('abcdefghi\nEND\n\nExit code: 0')).toBe(true);
    expect(result.length).toBeLessThan(maxCommandOutputChars + 200);
  });

  it('stops a command at its timeout with everything it started, showing the output so far', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    const started = Date.now();
    await expect(
      runTool(ctx, 'exec_command', {
        command: 'echo started; sleep 30 & echo $! > bg.pid; sleep 30',
        timeout_ms: 1000,
      }),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/^The command timed out after 1 s and was stopped[\s\S]*started/),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    const background = Number(await readFile(join(work.path, 'bg.pid'), 'utf8'));
    await eventually(() => isGone(background));
  });

  it('is killed with its whole process group when the run is cancelled', async () => {
    const controller = new AbortController();
    const { work, ctx } = await setup(controller.signal);
    await using _ = work;
    const running = runTool(ctx, 'exec_command', { command: 'sleep 30 & echo $! > bg.pid; sleep 30' });
    const pidFile = join(work.path, 'bg.pid');
    await eventually(
      async () =>
        (await stat(pidFile).catch(() => null))?.size !== undefined && (await stat(pidFile)).size > 0,
    );
    const background = Number(await readFile(pidFile, 'utf8'));
    const started = Date.now();
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(3000);
    await eventually(() => isGone(background));
  });

  it('does not pass the model key, the auth key or other credentials to the command', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    const saved = { ...process.env };
    Object.assign(process.env, {
      RUNTIME_MODEL_API_KEY: 'sk-model-secret',
      RUNTIME_AUTH_API_KEY: 'auth-secret',
      OPENAI_API_KEY: 'sk-openai-secret',
      GITHUB_TOKEN: 'ghp-secret',
      KEEL_VISIBLE: 'yes',
    });
    try {
      const result = await runTool(ctx, 'exec_command', { command: 'env' });
      expect(result).toContain('PATH=');
      expect(result).not.toMatch(/secret|RUNTIME_MODEL_API_KEY|RUNTIME_AUTH_API_KEY|KEEL_VISIBLE/);
      // A variable reaches commands when the configuration lets it (security.env_allow); the runtime's
      // own keys never do.
      const allowing = createCommandPolicy({ allowedCommands: ['*'], envAllow: ['KEEL_*', 'RUNTIME_*'] });
      const opted = await runTool({ ...ctx, commands: allowing }, 'exec_command', { command: 'env' });
      expect(opted).toContain('KEEL_VISIBLE=yes');
      expect(opted).not.toMatch(/secret|RUNTIME_MODEL_API_KEY|RUNTIME_AUTH_API_KEY/);
    } finally {
      for (const name of [
        'RUNTIME_MODEL_API_KEY',
        'RUNTIME_AUTH_API_KEY',
        'OPENAI_API_KEY',
        'GITHUB_TOKEN',
        'KEEL_VISIBLE',
      ]) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('refuses a command the policy does not allow before running any part of it', async () => {
    await using work = await tempDir();
    const audit: ToolAuditRecord[] = [];
    // No policy in the context: the default allow-list applies.
    const ctx = await contextFor(work.path, {}, undefined, { audit: (record) => void audit.push(record) });
    await expect(
      runTool(ctx, 'exec_command', { command: 'mkdir made && curl -s https://example.org' }),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(
        'Command refused: "curl -s https://example.org" is not on the allow-list',
      ),
    });
    await expect(stat(join(work.path, 'made'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(runTool(ctx, 'exec_command', { command: 'rm -rf ~' })).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(
        '"rm -rf ~" recursively deletes ~, which the built-in block list refuses',
      ),
    });
    expect(audit).toEqual([
      expect.objectContaining({ tool_name: 'exec_command', success: false }),
      expect.objectContaining({ tool_name: 'exec_command', success: false }),
    ]);
  });

  it('rejects bad arguments clearly', async () => {
    const { work, ctx } = await setup();
    await using _ = work;
    await expect(runTool(ctx, 'exec_command', { command: '   ' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: 'The command is empty: give a shell command to run.',
    });
    await expect(runTool(ctx, 'exec_command', { command: 'ls', timeout_ms: 10 })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('timeout_ms'),
    });
    await expect(runTool(ctx, 'exec_command', { command: 'echo "unclosed' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: 'The command is not valid shell syntax: Unterminated double quote.',
    });
  });
});
