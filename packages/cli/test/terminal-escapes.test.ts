import { spawn } from 'node:child_process';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { RuntimeEvent } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { confirmProjectTrust } from '../src/commands/project-trust.ts';
import type { CliIo } from '../src/io.ts';
import { createEventPrinter } from '../src/render/event-printer.ts';
import { createRecordPrinter } from '../src/render/record-printer.ts';
import { jsonLines, keel, keelJson } from './keel-process.ts';
import { scenario } from './scenario.ts';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/**
 * What a hostile model, tool result or repository file prints to take over a terminal: OSC 52 (writes the
 * clipboard), OSC 0 (the window title), OSC 8 (a link whose text lies), a cursor move up and an erase (to
 * redraw what was printed), a one-character C1 CSI, and a carriage return (to print over a line).
 */
const hostile =
  'A\u001b]52;c;cHduZWQ=\u0007B\u001b]0;pwned title\u0007C\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\D\u001b[3A\u001b[0JE\u009b2JF\rG';

/** Every control character a terminal could act on: all but the newline and the tab. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function expectNoRawControls(...outputs: string[]) {
  for (const output of outputs) {
    const found = rawControl.exec(output);
    expect(found ? `raw U+${found[0].charCodeAt(0).toString(16)} at ${found.index}` : 'none').toBe('none');
  }
}

/** The escaped forms a user sees instead. */
const shown = ['\\x1b]52;c;cHduZWQ=\\x07', '\\x1b]0;pwned title\\x07', '\\x1b[3A\\x1b[0J', '\\x9b2J'];

describe('terminal escapes from models, tools, repositories and the store are shown, never run', () => {
  test('keel run, runs show, runs watch and their --json', { timeout: 60_000 }, async () => {
    await using s = await scenario(
      [
        {
          reasoning: `thinking ${hostile}`,
          toolCalls: [
            { name: 'read_file', arguments: { path: 'hostile.txt' } },
            { name: 'list_directory', arguments: { path: `missing-${hostile}` } },
          ],
        },
        { text: `Answer: ${hostile}` },
        { text: `Again: ${hostile}` },
      ],
      { files: { 'hostile.txt': `file says ${hostile}\n` } },
    );
    const run = await keel(['run', `prompt ${hostile}`, '-v', '--workdir', s.repo.path], s.env);
    expect(run.code).toBe(0);
    expectNoRawControls(run.stdout, run.stderr);
    for (const text of shown) {
      expect(run.stdout).toContain(text);
      expect(run.stderr).toContain(text);
    }
    // The carriage return ends a line instead of letting G print over F.
    expect(run.stdout).toContain('F\nG');
    expect(run.stderr).toContain('file says A\\x1b]52;c;');

    const { runs } = await keelJson<{ runs: { id: string }[] }>(['runs', 'list', '-w', s.repo.path], s.env);
    const id = runs[0]!.id;
    const list = await keel(['runs', 'list', '-w', s.repo.path], s.env);
    const show = await keel(['runs', 'show', id, '-w', s.repo.path], s.env);
    const watch = await keel(['runs', 'watch', id, '-v', '-w', s.repo.path], s.env);
    expectNoRawControls(list.stdout, show.stdout, show.stderr, watch.stdout, watch.stderr);
    expect(show.stdout).toContain('prompt A\\x1b]52;c;');
    expect(watch.stdout).toContain(shown[0]);

    // JSON stays JSON (C0 escaped by JSON itself, DEL and C1 as \u00XX) and carries the text exactly.
    const json = await keel(['runs', 'watch', id, '--json', '-w', s.repo.path], s.env);
    const shownJson = await keel(['runs', 'show', id, '--json', '-w', s.repo.path], s.env);
    const live = await keel(['run', 'again', '--json', '--workdir', s.repo.path], s.env);
    expectNoRawControls(json.stdout, shownJson.stdout, live.stdout, live.stderr);
    const answer = jsonLines<{ type: string; content?: string }>(json.stdout)
      .filter((event) => event.type === 'text_delta')
      .map((event) => event.content)
      .join('');
    expect(answer).toBe(`Answer: ${hostile}`);
    expect(JSON.parse(shownJson.stdout).run.prompt).toBe(`prompt ${hostile}`);
    expect(
      jsonLines<{ type: string; content?: string }>(live.stdout)
        .filter((event) => event.type === 'text_delta')
        .map((event) => event.content)
        .join(''),
    ).toBe(`Again: ${hostile}`);
  });

  test('keel chat', { timeout: 30_000 }, async () => {
    await using s = await scenario([{ text: `Chat: ${hostile}` }]);
    const child = spawn(process.execPath, [keelBin, 'chat', '-w', s.repo.path], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...s.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end('hello\n');
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expectNoRawControls(stdout, stderr);
    expect(stdout).toContain(shown[2]);
  });

  test('the trust prompt: a repository’s config keys and values cannot redraw it', {
    timeout: 30_000,
  }, async () => {
    const config = {
      'model_base_url\u001b[3A\u001b[0J': 'x',
      sandbox: { enabled: false, note: `ok\u001b[3A\u001b[0J\u009b2J` },
    };
    await using s = await scenario([{ text: 'hi', repeat: true }], { config });

    // Not a terminal: the note lists the keys, escaped.
    const run = await keel(['run', 'hi', '--workdir', s.repo.path], s.env);
    expectNoRawControls(run.stdout, run.stderr);
    expect(run.stderr).toContain('\\x1b[3A\\x1b[0J');

    // A terminal: the question itself, answered "not now".
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const err = collect();
    const io: CliIo = {
      in: input,
      out: collect().stream,
      err: err.stream,
      env: s.env,
      cwd: s.repo.path,
      exitCode: 0,
    };
    const asked = confirmProjectTrust(io, s.repo.path);
    input.end('n\n');
    await asked;
    expectNoRawControls(err.text());
    expect(err.text()).toContain('Trust this folder?');
    expect(err.text()).toContain('model_base_url\\x1b[3A\\x1b[0J');
  });

  test('every event the printers show, and an approval asked over --json', () => {
    const events: RuntimeEvent[] = [
      { type: 'text_delta', session_id: 's', content: `${hostile}\r` },
      { type: 'text_delta', session_id: 's', content: `\n${hostile}` },
      { type: 'thinking', session_id: 's', content: hostile },
      {
        type: 'tool_call',
        session_id: 's',
        tool_call_id: 'c',
        tool_name: `x${hostile}`,
        args: { a: hostile },
      },
      { type: 'tool_result', session_id: 's', tool_call_id: 'c', tool_name: 'x', result: hostile },
      { type: 'retry', session_id: 's', attempt: 1, max_attempts: 2, error: hostile, delay_ms: 1 },
      { type: 'circuit_breaker', session_id: 's', reason: hostile },
      { type: 'user_input_received', session_id: 's', content: hostile },
      {
        type: 'agent_spawned',
        session_id: 's',
        agent_id: 'a',
        run_id: 'r',
        agent_type: 'generic',
        task: hostile,
      },
      { type: 'agent_finished', session_id: 's', agent_id: 'a', status: 'failed', error: hostile },
      {
        type: 'interaction_request',
        session_id: 's',
        request_id: 'apr',
        kind: 'question',
        prompt: hostile,
        options: [hostile],
      },
      { type: 'error', session_id: 's', error: { code: 'TOOL_ERROR', message: hostile } },
    ] as unknown as RuntimeEvent[];
    const out = collect();
    const err = collect();
    const print = createEventPrinter({ verbose: true, out: out.stream, err: err.stream });
    for (const event of events) print(event);
    expectNoRawControls(out.text(), err.text());
    // A CRLF split across two chunks is one line break.
    expect(out.text()).toContain('F\nG\nA\\x1b]52');
    expect(err.text().match(/\\x1b\]52;c;/g)?.length).toBeGreaterThanOrEqual(events.length - 2);

    const jsonOut = collect();
    const jsonErr = collect();
    const io: CliIo = { out: jsonOut.stream, err: jsonErr.stream, env: {}, cwd: '/', exitCode: 0 };
    const record = createRecordPrinter(io, { json: true });
    for (const [index, event] of events.entries()) record(event, index + 1);
    expectNoRawControls(jsonOut.text(), jsonErr.text());
    expect(jsonErr.text()).toContain('keel approvals answer apr');
    expect(jsonLines<{ content?: string }>(jsonOut.text())[0]?.content).toBe(`${hostile}\r`);
  });
});

/** A stream that keeps what is written to it. */
function collect() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}
