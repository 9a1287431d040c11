import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { TuiController } from '../../src/tui/controller.ts';
import type { Entry } from '../../src/tui/transcript.ts';
import type { TuiState } from '../../src/tui/tui-state.ts';
import { waitFor } from '../keel-process.ts';
import { scenario } from '../scenario.ts';

// A 1×1 transparent PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A controller on a real runtime over the scenario's store and scripted model, as `keel tui` builds it. */
function open(s: Awaited<ReturnType<typeof scenario>>, env: Record<string, string> = {}, thinking = false) {
  const allEnv = { ...s.env, ...env };
  const runtime = createRuntime({ env: allEnv, workdir: s.repo.path });
  const controller = new TuiController({
    runtime,
    workdir: s.repo.path,
    flags: thinking ? { thinking: true } : {},
    env: allEnv,
    cwd: s.repo.path,
  });
  return {
    controller,
    /** Types a line and presses Enter. */
    enter(line: string) {
      controller.paste(line);
      controller.perform({ type: 'submit' });
    },
    state: () => controller.store.get(),
    until: (check: (state: TuiState) => boolean) =>
      waitFor(() => (check(controller.store.get()) ? true : undefined), 10_000),
    async [Symbol.asyncDispose]() {
      await controller.shutdown();
      await runtime.close();
    },
  };
}

const idle = (state: TuiState) => state.run === null;
const notices = (entries: Entry[]) =>
  entries.flatMap((entry) => (entry.kind === 'notice' ? [entry.text] : []));

describe('TuiController', () => {
  test('/image attaches an image to the next prompt only; a bad path is an error line', async () => {
    await using s = await scenario([{ text: 'A tiny image.' }, { text: 'No image this time.' }]);
    await writeFile(join(s.repo.path, 'dot.png'), png);
    await using tui = open(s);
    tui.enter('/image missing.png');
    await tui.until((state) =>
      notices(state.entries).some((text) => text.startsWith('Error [INVALID_PARAMS]')),
    );
    tui.enter('/image dot.png');
    await tui.until((state) => state.images.length === 1);
    expect(notices(tui.state().entries)).toContain('Attached dot.png (1 KB): it goes with your next prompt.');

    tui.enter('What is this?');
    await tui.until((state) => idle(state) && state.usage !== null);
    expect(tui.state().entries).toContainEqual({
      kind: 'user',
      text: 'What is this?',
      images: ['dot.png'],
      duringRun: false,
    });
    expect(JSON.stringify(s.model.chatRequests[0]?.messages)).toContain(
      `data:image/png;base64,${png.toString('base64')}`,
    );
    expect(tui.state().images).toEqual([]);

    tui.enter('And now?');
    await tui.until((state) =>
      state.entries.some((entry) => entry.kind === 'assistant' && entry.text === 'No image this time.'),
    );
    expect(JSON.stringify(s.model.chatRequests[1]?.messages?.at(-1))).not.toContain('image_url');
  });

  test('/settings shows the effective settings and never a secret', async () => {
    await using s = await scenario([], {
      config: {
        model_base_url: 'https://user:hunter2@models.example.com/v1?api_key=sk-in-url',
        circuit_breaker: { max_tokens: 5000 },
      },
      // `model_base_url` applies from a project file only in a trusted folder.
      trusted: true,
    });
    await using tui = open(s, { RUNTIME_MODEL_API_KEY: 'sk-secret-123', RUNTIME_ENABLE_THINKING: 'true' });
    tui.enter('/settings');
    const text = notices(tui.state().entries).at(-1)!;
    expect(text).toMatch(/^Model +mock-model$/m);
    expect(text).toMatch(/^Base URL +https:\/\/\*\*\*:\*\*\*@models\.example\.com\/v1\?api_key=\*\*\*$/m);
    expect(text).toMatch(/^API key +set \(RUNTIME_MODEL_API_KEY\)$/m);
    expect(text).toMatch(/^Thinking +on$/m);
    expect(text).toMatch(/^Breaker +on: max tokens 5000, max cost \$5, max steps none/m);
    expect(text).toContain(`Workdir         ${s.repo.path}`);
    for (const secret of ['sk-secret-123', 'hunter2', 'sk-in-url']) expect(text).not.toContain(secret);
  });

  test('/skills lists each skill with enabled, source and description, and warns of a broken one', async () => {
    await using s = await scenario([], { config: { skills: { disabled: ['git'] } } });
    const skills = join(s.repo.path, '.runtime', 'skills');
    await mkdir(join(skills, 'deploy'), { recursive: true });
    await writeFile(
      join(skills, 'deploy', 'SKILL.md'),
      '---\nname: deploy\ndescription: Ship it.\n---\nSteps.\n',
    );
    await mkdir(join(skills, 'broken'), { recursive: true });
    await writeFile(join(skills, 'broken', 'SKILL.md'), 'No front matter.\n');
    await using tui = open(s);
    tui.enter('/skills');
    await tui.until((state) => notices(state.entries).some((text) => text.startsWith('Warning: ')));
    const [listing, warning] = notices(tui.state().entries).slice(-2);
    const rows = listing!
      .split('\n')
      .slice(2, -1)
      .map((line) => line.trim().split(/\s+/).slice(0, 3).join(' '));
    expect(rows).toEqual([
      'containers yes builtin',
      'deploy yes project',
      'git no builtin',
      'package-managers yes builtin',
      'python yes builtin',
      'testing yes builtin',
    ]);
    expect(listing).toMatch(/^ {2}deploy +yes +project +Ship it\.$/m);
    expect(warning).toBe(
      `Warning: ${join(skills, 'broken', 'SKILL.md')}: Skipped: it does not begin with YAML front matter between --- lines.`,
    );
  });

  test('/clear empties the view but keeps the session', async () => {
    await using s = await scenario([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    await using tui = open(s);

    tui.enter('Hello');
    await tui.until((state) => idle(state) && state.sessionId !== null);
    const session = tui.state().sessionId;
    tui.enter('/clear');
    expect(tui.state().entries).toEqual([]);
    expect(tui.state().sessionId).toBe(session);
    tui.enter('Again');
    await tui.until((state) => idle(state) && state.entries.length > 1);
    expect(JSON.stringify(s.model.chatRequests[1]?.messages)).toContain('Hello');
  });

  test('a message sent while the agent writes its last answer becomes the next prompt', async () => {
    await using s = await scenario([
      { text: 'word '.repeat(60), chunkDelayMs: 20 },
      { when: { lastMessageIncludes: 'and one more thing' }, text: 'The one more thing.' },
    ]);
    await using tui = open(s);
    tui.enter('Talk');
    await tui.until(
      (state) => state.run?.id != null && state.entries.some((entry) => entry.kind === 'assistant'),
    );
    tui.enter('and one more thing');
    expect(tui.state().queued).toEqual(['and one more thing']);
    await tui.until((state) =>
      state.entries.some((entry) => entry.kind === 'assistant' && entry.text === 'The one more thing.'),
    );
    expect(notices(tui.state().entries)).toContain(
      'Your message came after the agent’s last turn: sending it as the next prompt.',
    );
    await tui.until(idle);
    expect(tui.state().queued).toEqual([]);
  });

  test('with thinking enabled the model’s thinking is in the transcript', async () => {
    await using s = await scenario([{ reasoning: 'Weighing options.', text: 'Decided.' }]);
    await using tui = open(s, {}, true);
    tui.enter('Decide');
    await tui.until((state) => idle(state) && state.usage !== null);
    expect(tui.state().entries).toContainEqual({ kind: 'thinking', text: 'Weighing options.' });
  });

  test('a broken config file is shown at once, and the TUI stays usable', async () => {
    await using s = await scenario([]);
    await mkdir(join(s.repo.path, '.runtime'), { recursive: true });
    await writeFile(join(s.repo.path, '.runtime', 'config.json'), '{ not json');
    await using tui = open(s);
    expect(notices(tui.state().entries).join('\n')).toMatch(
      /^Error \[CONFIG_ERROR\]: Configuration file .* is not valid JSON/m,
    );
    tui.enter('Hello');
    await tui.until((state) => idle(state) && notices(state.entries).length >= 3);
    expect(notices(tui.state().entries).at(-1)).toMatch(/^Error \[CONFIG_ERROR\]/);
    tui.enter('/help');
    expect(notices(tui.state().entries).at(-1)).toMatch(/^Commands\n/);
  });

  test('/new and /sessions <id> are refused while a run is in progress', async () => {
    await using s = await scenario([{ text: 'word '.repeat(100), chunkDelayMs: 20 }]);
    await using tui = open(s);
    tui.enter('Talk');
    await tui.until((state) => state.entries.some((entry) => entry.kind === 'assistant'));
    tui.enter('/new');
    expect(notices(tui.state().entries).at(-1)).toBe(
      '/new is not available while a run is in progress: press Esc to cancel it first.',
    );
    tui.controller.perform({ type: 'cancel-run' });
    await tui.until(idle);
    expect(notices(tui.state().entries).at(-1)).toBe('Cancelled.');
  });
});
