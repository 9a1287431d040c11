import { describe, expect, test } from 'vitest';
import { scenario } from '../scenario.ts';
import { hasTmux, inputLine, startTui, statusLine } from './terminal.ts';

const sessionId = /ses_\w+/;

/** Text of every message the model was sent in request `index`. */
function sentTexts(model: { chatRequests: ReadonlyArray<{ messages?: unknown }> }, index: number): string {
  return JSON.stringify(model.chatRequests[index]?.messages ?? []);
}

describe.skipIf(!hasTmux)('keel tui: a conversation', () => {
  test('a prompt streams its answer; the status line shows model, session, workdir and tokens', async () => {
    const answer = 'One two three four five six seven eight nine ten eleven twelve, done.';
    await using s = await scenario([
      { text: answer, chunkDelayMs: 120, usage: { prompt_tokens: 42, completion_tokens: 17 } },
    ]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.waitForText('/help lists commands');
    expect(statusLine(await tui.screen())).toContain('mock-model · new session');

    await tui.submit('Count to twelve');
    // Seen part-way: the answer arrives in pieces, not at the end.
    const partial = await tui.waitFor(
      (screen) => screen.includes('One two') && !screen.includes('done.'),
      'part of the answer',
    );
    expect(statusLine(partial)).toContain('running…');
    const finished = await tui.waitFor(
      // The usage arrives with `done`, a moment before the status line stops saying running.
      (screen) =>
        screen.includes(answer) &&
        statusLine(screen).includes('tokens') &&
        !statusLine(screen).includes('running…'),
      'the whole answer, the usage, and the run finished',
    );
    expect(finished).toContain('› Count to twelve');
    const status = statusLine(finished);
    expect(status).toMatch(sessionId);
    expect(status).toContain('tokens 42 in / 17 out');
    expect(status).toContain(s.repo.path.split('/').at(-1));
    expect(status).not.toContain('running…');
  }, 30_000);

  test('a tool call shows as ● read_file(...) with a one-line result preview; long arguments are cut at 120', async () => {
    const pattern = `needle-${'x'.repeat(150)}`;
    await using s = await scenario(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'app.py' } }] },
        { when: { lastRole: 'tool' }, toolCalls: [{ name: 'grep', arguments: { pattern, path: '.' } }] },
        { when: { lastRole: 'tool' }, text: 'app.py prints hi.' },
      ],
      { files: { 'app.py': 'print("hi")\nprint("there")\nprint("again")\n' } },
    );
    await using tui = await startTui(['-w', s.repo.path], s.env, { columns: 160, rows: 30 });
    await tui.submit('What does app.py print?');
    const screen = await tui.waitForText('app.py prints hi.');
    const rows = screen.split('\n');
    expect(rows).toContain('● read_file({"path":"app.py"})');
    // The result's first line, and how many lines follow, on one line under the call.
    const preview = rows[rows.indexOf('● read_file({"path":"app.py"})') + 1]!;
    expect(preview).toMatch(/^ {2}⎿ .*print\("hi"\).*\(\+2 lines\)$/);
    const grepLine = rows.find((row) => row.startsWith('● grep('))!;
    expect(grepLine).toBe(`● grep(${JSON.stringify({ pattern, path: '.' }).slice(0, 117)}...)`);
  }, 30_000);

  test('/help lists every command; an unknown command gets a one-line hint', async () => {
    await using s = await scenario([]);
    await using tui = await startTui(['-w', s.repo.path], s.env, { columns: 100, rows: 40 });
    await tui.submit('/help');
    const help = await tui.waitForText('Keys');
    for (const command of [
      '/help',
      '/new',
      '/sessions',
      '/skills',
      '/settings',
      '/image <path>',
      '/clear',
      '/quit',
    ]) {
      expect(help).toMatch(new RegExp(`^ {2}${command.replace(/[/<>]/g, '\\$&')}\\s+\\S`, 'm'));
    }
    await tui.submit('/sess');
    await tui.waitForText('Unknown command /sess. Did you mean /sessions? Type /help for the list.');
    expect(s.model.chatRequests).toHaveLength(0);
  }, 30_000);

  test('later prompts continue the session; /new starts a new one that does not see the old conversation', async () => {
    await using s = await scenario([
      { text: 'Noted: the word is apple.' },
      { text: 'You said apple.' },
      { text: 'A fresh start.' },
    ]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Remember the word apple');
    const first = await tui.waitForText('Noted: the word is apple.');
    await tui.waitFor((screen) => !statusLine(screen).includes('running'), 'the run to end');
    const firstSession = statusLine(await tui.screen()).match(sessionId)?.[0];
    expect(firstSession, first).toBeDefined();

    await tui.submit('Which word?');
    await tui.waitForText('You said apple.');
    expect(sentTexts(s.model, 1)).toContain('Remember the word apple');
    expect(statusLine(await tui.screen())).toContain(firstSession);

    await tui.submit('/new');
    const fresh = await tui.waitForText('New session: your next prompt starts it.');
    expect(fresh).not.toContain('apple');
    expect(statusLine(fresh)).toContain('new session');
    await tui.submit('Hello again');
    const after = await tui.waitFor(
      (screen) => statusLine(screen).includes('tokens') && screen.includes('A fresh start.'),
      'the new run',
    );
    const secondSession = statusLine(after).match(sessionId)?.[0];
    expect(secondSession).toBeDefined();
    expect(secondSession).not.toBe(firstSession);
    expect(sentTexts(s.model, 2)).not.toContain('apple');
  }, 30_000);

  test('/sessions lists recent sessions; /sessions <n> switches and shows the past messages', async () => {
    await using s = await scenario([{ text: 'Blue is a fine colour.' }, { text: 'Still blue.' }]);
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('My favourite colour is blue');
    await tui.waitForText('Blue is a fine colour.');
    await tui.waitFor((screen) => statusLine(screen).includes('tokens'), 'the run to end');
    const session = statusLine(await tui.screen()).match(sessionId)![0];

    await tui.submit('/new');
    await tui.waitForText('New session');
    await tui.submit('/sessions');
    const list = await tui.waitForText('Recent sessions');
    expect(list).toMatch(new RegExp(`^ {3}1 {2}${session} .* My favourite colour is blue$`, 'm'));

    await tui.submit('/sessions 1');
    const switched = await tui.waitForText(`Session ${session}`);
    expect(switched).toContain('› My favourite colour is blue');
    expect(switched).toContain('Blue is a fine colour.');
    expect(statusLine(switched)).toContain(session);
    await tui.submit('And now?');
    await tui.waitForText('Still blue.');
    expect(sentTexts(s.model, 1)).toContain('My favourite colour is blue');
  }, 30_000);

  test('a message typed during a run is sent to it; the agent sees it at its next turn', async () => {
    await using s = await scenario(
      [
        // The first answer takes a while: time to type a message while the run is in progress.
        { toolCalls: [{ name: 'read_file', arguments: { path: 'app.py' } }], delayMs: 2_500 },
        { when: { lastMessageIncludes: 'also check the README' }, text: 'Checked the README too.' },
      ],
      { files: { 'app.py': 'print("hi")\n', 'README.md': '# App\n' } },
    );
    await using tui = await startTui(['-w', s.repo.path], s.env);
    await tui.submit('Read app.py');
    await tui.waitFor((screen) => statusLine(screen).includes('running…'), 'the run to start');
    await tui.submit('also check the README');
    const queued = await tui.waitForText('queued for the agent’s next turn');
    expect(inputLine(queued)).toContain('»');
    const done = await tui.waitForText('Checked the README too.');
    // The run confirmed it (user_input_received): it is in the transcript, no longer queued.
    expect(done.split('\n')).toContain('» also check the README');
    expect(done).not.toContain('queued for the agent');
  }, 30_000);
});
