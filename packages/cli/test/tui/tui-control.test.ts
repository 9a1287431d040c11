import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { keel } from '../keel-process.ts';
import { scenario } from '../scenario.ts';
import { hasTmux, startTui, statusLine } from './terminal.ts';

const needsApproval = { security: { require_approval: ['write_file'] } };
const idle = (screen: string) => statusLine(screen).includes('tokens') && !statusLine(screen).includes('…');

describe.skipIf(!hasTmux)('keel tui: approvals, cancelling, failures and leaving', () => {
  test('an approval shows inline; y approves it and the run finishes', async () => {
    await using s = await scenario(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: '# Notes\n' } }] },
        { when: { lastRole: 'tool' }, text: 'Wrote NOTES.md.' },
      ],
      { config: needsApproval, trusted: true },
    );
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Write the notes');
    const asked = await tui.waitFor(
      (screen) => screen.includes('[y] approve') && statusLine(screen).includes('waiting for your answer'),
      'the approval prompt and the waiting status',
    );
    expect(asked).toContain('Approval needed: Allow write_file');
    await tui.press('y');
    const done = await tui.waitForText('Wrote NOTES.md.');
    expect(done).toContain('→ approved');
    expect(done).toContain('● write_file(');
    expect(await readFile(join(s.repo.path, 'NOTES.md'), 'utf8')).toBe('# Notes\n');
  }, 30_000);

  test('an approval rejected with a typed reason: the model is told why, nothing is written', async () => {
    await using s = await scenario(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: 'x' } }] },
        { when: { lastMessageIncludes: 'not in the repo root' }, text: 'Understood, I did not write it.' },
      ],
      { config: needsApproval, trusted: true },
    );
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Write the notes');
    await tui.waitForText('[y] approve');
    await tui.submit('not in the repo root');
    const done = await tui.waitForText('Understood, I did not write it.');
    expect(done).toContain('→ rejected: not in the repo root');
    await expect(readFile(join(s.repo.path, 'NOTES.md'), 'utf8')).rejects.toThrow();
  }, 30_000);

  test('a question is answered by typing an option’s number', async () => {
    await using s = await scenario([
      {
        toolCalls: [
          { name: 'question', arguments: { text: 'Which license?', options: ['MIT', 'Apache-2.0'] } },
        ],
      },
      { when: { lastMessageIncludes: 'Apache-2.0' }, text: 'Apache-2.0 it is.' },
    ]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Pick a license');
    const asked = await tui.waitForText('Question: Which license?');
    expect(asked).toContain('1) MIT   2) Apache-2.0');
    await tui.submit('2');
    const done = await tui.waitForText('Apache-2.0 it is.');
    expect(done).toContain('→ answered: Apache-2.0');
  }, 30_000);

  test('Ctrl-C cancels a streaming run, the TUI stays usable, and Ctrl-C when idle quits with 0', async () => {
    await using s = await scenario([
      { text: 'word '.repeat(400), chunkDelayMs: 40 },
      { text: 'Still here.' },
    ]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Talk for a long time');
    await tui.waitForText('word word word');
    await tui.press('C-c');
    const cancelled = await tui.waitForText('Cancelled.');
    await tui.waitFor((screen) => !statusLine(screen).includes('…'), 'the run to stop', 5_000);
    // The stream stopped: the answer did not run to its end.
    expect(cancelled.split('word').length - 1).toBeLessThan(400);

    await tui.submit('Are you there?');
    await tui.waitForText('Still here.');
    await tui.waitFor(idle, 'the second run to end');
    await tui.press('C-c');
    expect(await tui.exited()).toBe(0);
  }, 30_000);

  test('Esc cancels a run that waits for an approval', async () => {
    await using s = await scenario(
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: 'x' } }] }],
      { config: needsApproval, trusted: true },
    );
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Write the notes');
    await tui.waitForText('[y] approve');
    await tui.press('Escape');
    const cancelled = await tui.waitForText('Cancelled.');
    expect(cancelled).toContain('→ not answered');
    expect(cancelled).not.toContain('[y] approve');
  }, 30_000);

  test('/quit exits 0 and gives the terminal back as it was (main screen, line mode, echo)', async () => {
    await using s = await scenario([{ text: 'Hi.' }]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Say hi');
    await tui.waitForText('Hi.');
    await tui.submit('/quit');
    expect(await tui.exited()).toBe(0);
    const screen = await tui.screen();
    expect(screen).toContain('shell before keel tui');
    expect(screen).toMatch(/shell after keel tui\s+icanon echo/);
    // The TUI drew on the alternate screen, which is gone.
    expect(screen).not.toContain('Say hi');
  }, 30_000);

  test('a failed run shows its error, a retry is shown, and the next prompt works', async () => {
    await using s = await scenario([
      { error: { status: 400, message: 'context too long for this model' } },
      { error: { status: 503, message: 'overloaded' } },
      { text: 'Recovered after a retry.' },
    ]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('First try');
    const failed = await tui.waitForText('Error [MODEL_ERROR]');
    expect(failed.replace(/\s+/g, ' ')).toContain('context too long for this model');
    await tui.waitFor((screen) => !statusLine(screen).includes('…'), 'the failed run to end');

    await tui.submit('Second try');
    const done = await tui.waitForText('Recovered after a retry.');
    // Counted from the first retry; the error names the endpoint, so the line may wrap.
    expect(done.replace(/\s+/g, ' ')).toMatch(
      /↻ retry 1\/3: The model endpoint \S+ answered HTTP 503.*overloaded/,
    );
  }, 30_000);

  test('a terminal too small says so, and the TUI draws normally once it is enlarged', async () => {
    await using s = await scenario([]);
    await using tui = await startTui(
      ['-w', s.repo.path],
      s.env,
      { columns: 24, rows: 5 },
      { waitUntilDrawn: false },
    );
    await tui.waitForText('Terminal too small');
    await tui.resize({ columns: 100, rows: 30 });
    const screen = await tui.waitForText('/help lists commands');
    expect(statusLine(screen)).toContain('mock-model');
    await tui.submit('/quit');
    expect(await tui.exited()).toBe(0);
  }, 30_000);

  test('--session with an unknown id is an error before the screen opens', async () => {
    await using s = await scenario([]);
    await using tui = await startTui(['-w', s.repo.path, '--session', 'ses_missing'], s.env, undefined, {
      waitUntilDrawn: false,
    });
    expect(await tui.exited()).toBe(1);
    const screen = await tui.screen();
    expect(screen).toContain("Error [SESSION_NOT_FOUND]: Session 'ses_missing' does not exist.");
    expect(screen).toMatch(/icanon echo/);
  }, 30_000);
});

describe('keel tui without a terminal', () => {
  test('refuses with a clear error and exit code 1', async () => {
    const out = await keel(['tui']);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      'Error [INVALID_PARAMS]: keel tui needs an interactive terminal; for scripts and pipes use keel run.\n',
    );
  });
});
