import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ScriptedReply, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { jsonLines } from './keel-process.ts';
import { hasScript, runInTerminal, screenOf } from './run-render-terminal.ts';
import { scenario } from './scenario.ts';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

// An answer in Markdown, with a hostile escape sequence (an OSC 52 clipboard write) that must stay text.
const answer = [
  '## Summary',
  '',
  'I **edited** `app.py` and *kept* the [docs](https://example.com/docs). \x1b]52;c;aGk=\x07',
  '',
  '- first item',
  '- second item',
  '',
  '```py',
  'print("hello")',
  '```',
  '',
].join('\n');

const editApp = {
  name: 'edit_file',
  arguments: { path: 'app.py', old_text: 'print("hi")', new_text: 'print("hello")' },
};
const files = { 'app.py': 'print("hi")\n', 'notes.md': 'old line\nsame line\n' };

/** The escape codes of keel's colours (SGR): `\x1b[31m` red, `\x1b[32m` green, `\x1b[1m` bold… */
const sgr = (code: number, text: string) => `\x1b[${code}m${text}`;
const spinnerFrame = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

describe.skipIf(!hasScript)('keel run at a terminal', () => {
  test('renders the Markdown answer, shows each file change as a coloured diff, and wipes its spinner', async () => {
    const longFile = Array.from({ length: 45 }, (_, index) => `line ${index + 1}`).join('\n');
    await using s = await scenario(
      [
        {
          toolCalls: [
            editApp,
            { name: 'write_file', arguments: { path: 'notes.md', content: 'new line\nsame line\n' } },
            { name: 'write_file', arguments: { path: 'long.txt', content: `${longFile}\n` } },
          ],
        },
        { text: answer },
      ],
      { files },
    );
    const run = runInTerminal(['run', 'Fix app.py', '-w', s.repo.path], s.env);
    const { code, transcript } = await run.done;
    expect(code, transcript).toBe(0);

    // Markdown: styles instead of marks; the link keeps its URL; the code block loses its fences.
    expect(transcript).toContain(`${sgr(1, 'Summary')}\x1b[22m`);
    expect(transcript).toContain(`${sgr(1, 'edited')}\x1b[22m`);
    expect(transcript).toContain(`${sgr(36, 'app.py')}\x1b[39m`);
    expect(transcript).toContain(`${sgr(3, 'kept')}\x1b[23m`);
    expect(transcript).toContain(`docs (${sgr(4, 'https://example.com/docs')}\x1b[24m)`);
    expect(transcript).toContain(`${sgr(36, 'print("hello")')}\x1b[39m`);
    for (const mark of ['## ', '**', '`app.py`', '```', '- first']) expect(transcript).not.toContain(mark);
    // The model's escape sequence is shown escaped, styled or not: never sent to the terminal.
    expect(transcript).toContain('\\x1b]52;c;aGk=\\x07');
    expect(transcript).not.toContain('\x1b]52');

    // The edit, the overwrite (against the file as it was) and the new file, red and green.
    expect(transcript).toContain(`${sgr(31, '    -print("hi")')}\x1b[39m`);
    expect(transcript).toContain(`${sgr(32, '    +print("hello")')}\x1b[39m`);
    expect(transcript).toContain(`${sgr(31, '    -old line')}\x1b[39m`);
    expect(transcript).toContain(`${sgr(32, '    +new line')}\x1b[39m`);
    expect(transcript).toContain(`${sgr(2, '     same line')}\x1b[22m`);
    // The new file's 45 lines: the first 40, then how many more.
    expect(transcript).toContain(`${sgr(32, '    +line 40')}\x1b[39m`);
    expect(transcript).not.toContain('+line 41');
    expect(transcript).toContain('… 5 more lines');

    // The screen as the user sees it at the end: the answer and the diffs, no spinner left behind.
    const screen = screenOf(transcript);
    expect(screen).not.toMatch(spinnerFrame);
    expect(screen).toContain('• first item\n• second item');
    expect(screen).toMatch(
      / {2}⎿ Edited app\.py: replaced 1 occurrence\.\n {4}-print\("hi"\)\n {4}\+print\("hello"\)\n/,
    );
    expect(screen).toMatch(/Tokens: \d+ in, \d+ out, \d+ total · session ses_\w+\n*$/);
  });

  test('a spinner on stderr names the running tool and counts the seconds; stdout to a file stays plain', async () => {
    await using s = await scenario(
      [
        { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
        { text: answer },
      ],
      { files },
    );
    const answerFile = join(s.home, 'answer.md');
    const run = runInTerminal(['run', 'Wait for go', '-w', s.repo.path], s.env, { stdoutTo: answerFile });
    // The command waits for the file `go`: the spinner counts while it runs, a second and more.
    await run.waitFor(
      (text) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Running exec_command · [1-9]\d*s/.test(text),
      'the spinner to show exec_command running for a second',
    );
    await writeFile(join(s.repo.path, 'go'), '');
    const { code, transcript } = await run.done;
    expect(code, transcript).toBe(0);
    // It started before the first event, with no blank wait.
    expect(transcript.search(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking · 0s/)).toBeGreaterThan(-1);
    expect(transcript.search(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking · 0s/)).toBeLessThan(
      transcript.indexOf('● exec_command'),
    );
    expect(screenOf(transcript)).not.toMatch(spinnerFrame);
    // stdout is a file: the answer as the model wrote it (escaped), no spinner, no colour.
    expect(await readFile(answerFile, 'utf8')).toBe(
      answer.replace('\x1b]52;c;aGk=\x07', '\\x1b]52;c;aGk=\\x07'),
    );
  });

  test('NO_COLOR: no escape code at all; the answer as written, the diff without colour, the spinner still', async () => {
    await using s = await scenario([{ toolCalls: [editApp] }, { text: answer }], { files });
    const { code, transcript } = await runInTerminal(['run', 'Fix app.py', '-w', s.repo.path], {
      ...s.env,
      NO_COLOR: '1',
    }).done;
    expect(code, transcript).toBe(0);
    expect(transcript).not.toContain('\x1b');
    expect(transcript).toContain('## Summary\n\nI **edited** `app.py`');
    expect(transcript).toContain('\n    -print("hi")\n    +print("hello")\n');
    expect(transcript).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking · 0s/);
    expect(screenOf(transcript)).not.toMatch(spinnerFrame);
  });

  test('keel chat renders each turn the same way', async () => {
    await using s = await scenario([{ text: answer }], { files });
    const input = join(s.home, 'input.txt');
    await writeFile(input, 'Summarise\n');
    const { code, transcript } = await runInTerminal(['chat', '-w', s.repo.path], s.env, { stdinFrom: input })
      .done;
    expect(code, transcript).toBe(0);
    expect(transcript).toContain(`${sgr(1, 'Summary')}\x1b[22m`);
    expect(transcript).not.toContain('## ');
    expect(transcript).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking · 0s/);
    expect(screenOf(transcript)).not.toMatch(spinnerFrame);
  });

  test('--json at a terminal prints the same JSON lines as piped: no spinner, no Markdown, no colour', async () => {
    const script: ScriptedReply[] = [{ toolCalls: [editApp] }, { text: answer }];
    await using s = await scenario([...script, ...script], { files });
    const args = ['run', 'Fix app.py', '-w', s.repo.path, '--json'];
    const atTerminal = await runInTerminal(args, s.env).done;
    expect(atTerminal.code, atTerminal.transcript).toBe(0);
    await writeFile(join(s.repo.path, 'app.py'), files['app.py']);
    const piped = await runPiped(args, s.env);
    expect(piped.code, piped.stderr).toBe(0);

    const lines = atTerminal.transcript
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('Note: '));
    expect(lines.every((line) => line.startsWith('{'))).toBe(true);
    const shape = (events: Record<string, unknown>[]) =>
      events.map((event) => (event.type === 'text_delta' ? 'text_delta' : JSON.stringify(strip(event))));
    expect(shape(jsonLines(lines.join('\n')))).toEqual(shape(jsonLines(piped.stdout)));
    expect(atTerminal.transcript).not.toMatch(spinnerFrame);
  });
});

describe('keel run piped', () => {
  test('no spinner and no colour, even without NO_COLOR; the answer exactly as the model wrote it', async () => {
    await using s = await scenario([{ toolCalls: [editApp] }, { text: answer }], { files });
    const out = await runPiped(['run', 'Fix app.py', '-w', s.repo.path], s.env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(answer.replace('\x1b]52;c;aGk=\x07', '\\x1b]52;c;aGk=\\x07'));
    expect(out.stderr).not.toContain('\x1b');
    expect(out.stderr).not.toMatch(spinnerFrame);
    // The edit's diff is part of the log, without colour.
    expect(out.stderr).toContain(
      '  ⎿ Edited app.py: replaced 1 occurrence.\n    -print("hi")\n    +print("hello")\n',
    );
  });
});

/** `keel` with stdout and stderr piped and no NO_COLOR: what a script or CI log gets. */
function runPiped(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [keelBin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** An event without what differs between two runs of the same script (ids, times, the text's chunking). */
function strip(event: Record<string, unknown>): Record<string, unknown> {
  const { session_id: _session, tool_call_id: _call, ...rest } = event;
  if (rest.type === 'done') return { type: 'done', output: rest.output };
  return rest;
}
