import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { scenario } from './scenario.ts';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/** Runs `keel chat` with `lines` on its standard input. */
function chat(args: string[], lines: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [keelBin, 'chat', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('keel chat', () => {
  test('each line is a turn of one session; --continue picks the conversation up later', async () => {
    await using s = await scenario([
      { text: 'Hello, Ada.' },
      { when: { lastMessageIncludes: 'what is my name?' }, text: 'Your name is Ada.' },
      { when: { lastMessageIncludes: 'and again?' }, text: 'Still Ada.' },
    ]);
    const first = await chat(['-w', s.repo.path], ['my name is Ada', '', 'what is my name?'], s.env);
    expect(first.stderr).not.toContain('Error');
    expect(first).toMatchObject({ code: 0, stdout: 'Hello, Ada.\nYour name is Ada.\n' });
    // The second turn carried the first: the model saw both user messages.
    const users = (s.model.chatRequests[1]?.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['my name is Ada', 'what is my name?']);

    const again = await chat(['-w', s.repo.path, '--continue'], ['and again?', '/quit', 'never sent'], s.env);
    expect(again).toMatchObject({ code: 0, stdout: 'Still Ada.\n' });
    expect((s.model.chatRequests[2]?.messages ?? []).filter((m) => m.role === 'user')).toHaveLength(3);
    expect(s.model.remaining).toBe(0);
  });

  test('nothing to continue, an unknown session and a failed last turn are errors', async () => {
    await using s = await scenario([{ error: { status: 401 } }]);
    const nothing = await chat(['-w', s.repo.path, '--continue'], ['hi'], s.env);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('Error [SESSION_NOT_FOUND]: No session to continue');
    const unknown = await chat(['-w', s.repo.path, '-s', 'ses_nope'], ['hi'], s.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SESSION_NOT_FOUND');
    const failed = await chat(['-w', s.repo.path], ['hi'], s.env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Error [AUTHENTICATION_FAILED]');
  });
});
