import { createRuntime } from '@keel/runtime';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { TuiController } from '../../src/tui/controller.ts';
import { parseInput } from '../../src/tui/slash-commands.ts';
import { helpText } from '../../src/tui/slash-handlers.ts';
import type { Entry } from '../../src/tui/transcript.ts';
import type { TuiState } from '../../src/tui/tui-state.ts';
import { waitFor } from '../keel-process.ts';
import { scenario } from '../scenario.ts';
import { hasTmux, startTui, statusLine } from './terminal.ts';

const models = ['qwen2.5-coder:7b', 'gemma3:1b'];

/**
 * A scripted Ollama serving `models` (qwen2.5-coder:7b can call tools, gemma3:1b cannot: the mock's
 * `/api/show` says so), with the scenario's temp repo and RUNTIME_HOME; the configured model is gemma3:1b.
 */
async function ollamaWorld(script: ScriptedReply[] = []) {
  const s = await scenario([]);
  const model = await startMockModel({ profile: 'ollama', models, script });
  const env = { ...s.env, RUNTIME_MODEL: 'gemma3:1b', RUNTIME_MODEL_BASE_URL: model.url };
  return {
    s,
    model,
    env,
    async [Symbol.asyncDispose]() {
      await model.close();
      await s[Symbol.asyncDispose]();
    },
  };
}

/** A controller on a real runtime, as `keel tui` builds it (controller.test.ts's pattern). */
function open(workdir: string, env: Record<string, string>) {
  const runtime = createRuntime({ env, workdir });
  const controller = new TuiController({ runtime, workdir, flags: {}, env, cwd: workdir });
  return {
    controller,
    enter(line: string) {
      controller.paste(line);
      controller.perform({ type: 'submit' });
    },
    state: () => controller.store.get(),
    notices: () => notices(controller.store.get().entries),
    /** Waits until the transcript has `count` more notices than now (a /model answer is asynchronous). */
    async noticesAfter(line: string, count = 1): Promise<string[]> {
      const before = notices(controller.store.get().entries).length;
      this.enter(line);
      await waitFor(() => notices(controller.store.get().entries).length >= before + count || undefined);
      return notices(controller.store.get().entries).slice(before);
    },
    until: (check: (state: TuiState) => boolean) =>
      waitFor(() => (check(controller.store.get()) ? true : undefined), 10_000),
    async [Symbol.asyncDispose]() {
      await controller.shutdown();
      await runtime.close();
    },
  };
}

const notices = (entries: Entry[]) =>
  entries.flatMap((entry) => (entry.kind === 'notice' ? [entry.text] : []));

describe('/model', () => {
  test('is a command, listed by /help right after /settings', () => {
    expect(parseInput('/model qwen2.5-coder:7b')).toEqual({
      kind: 'command',
      name: 'model',
      argument: 'qwen2.5-coder:7b',
    });
    expect(parseInput('/mod')).toEqual({ kind: 'unknown-command', name: 'mod', suggestion: 'model' });
    const commands = helpText()
      .split('\n')
      .filter((line) => line.startsWith('  /'))
      .map((line) => line.trim().split(/\s+/)[0]);
    expect(commands).toEqual([
      '/help',
      '/new',
      '/sessions',
      '/skills',
      '/settings',
      '/model',
      '/image',
      '/clear',
      '/quit',
    ]);
  });

  test("lists the server's models with their context windows and tool support, the one in use marked", async () => {
    await using world = await ollamaWorld();
    await using tui = open(world.s.repo.path, world.env);
    const [listing, ...rest] = await tui.noticesAfter('/model');
    expect(rest).toEqual([]);
    expect(listing!.split('\n')).toEqual([
      `Models at ${world.model.url} (Ollama); * is the one in use`,
      '   1  qwen2.5-coder:7b  128k context',
      '*  2  gemma3:1b         32k context, no tools',
      'Choose with /model <id or number>: your next prompts use it.',
    ]);
  });

  test('/model <id>: the next prompts ask the server for that model, and /settings shows it', async () => {
    await using world = await ollamaWorld([{ text: 'Hello from qwen.' }]);
    await using tui = open(world.s.repo.path, world.env);
    expect(tui.state().model).toBe('gemma3:1b');

    expect(await tui.noticesAfter('/model qwen2.5-coder:7b')).toEqual([
      'Using qwen2.5-coder:7b for the next prompts (128k context).',
    ]);
    // The status line's model.
    expect(tui.state().model).toBe('qwen2.5-coder:7b');
    tui.enter('/settings');
    expect(tui.notices().at(-1)).toMatch(/^Model +qwen2\.5-coder:7b$/m);

    tui.enter('Say hello');
    await tui.until((state) =>
      state.entries.some((entry) => entry.kind === 'assistant' && entry.text === 'Hello from qwen.'),
    );
    expect(world.model.chatRequests.map((request) => request.model)).toEqual(['qwen2.5-coder:7b']);
  });

  test('a name the server does not list is used but warned of; a number picks from the list', async () => {
    await using world = await ollamaWorld([{ text: 'Hello from a model Ollama did not list.' }]);
    await using tui = open(world.s.repo.path, world.env);

    expect(await tui.noticesAfter('/model 1')).toEqual([
      'Using qwen2.5-coder:7b for the next prompts (128k context).',
    ]);
    // gemma3:1b: Ollama says it cannot call tools.
    expect(await tui.noticesAfter('/model 2')).toEqual([
      'Using gemma3:1b for the next prompts, but the server says it cannot call tools, which the agent needs to read or change files. /model shows which models can.',
    ]);
    expect(await tui.noticesAfter('/model llama3.3:70b')).toEqual([
      `Using llama3.3:70b for the next prompts, but ${world.model.url} does not list it. Some servers do not list every model; if the name is wrong, the next prompt fails. /model lists the ones it does.`,
    ]);
    expect(tui.state().model).toBe('llama3.3:70b');
    expect(await tui.noticesAfter('/model')).toEqual([
      expect.stringContaining('qwen2.5-coder:7b'),
      'The model in use, llama3.3:70b, is not in this list.',
    ]);

    tui.enter('Hello');
    await tui.until((state) => state.run === null && state.usage !== null);
    expect(world.model.chatRequests.map((request) => request.model)).toEqual(['llama3.3:70b']);
  });

  test('a server that cannot be asked: its error in the transcript, and a model can still be chosen', async () => {
    await using s = await scenario([]);
    // A port nothing listens on: a server that was started and stopped.
    const gone = await startMockModel();
    await gone.close();
    const env = { ...s.env, RUNTIME_MODEL_BASE_URL: gone.url };
    await using tui = open(s.repo.path, env);
    // listModels' own words: the runtime's connection errors.
    const refused = `Could not reach the model endpoint ${gone.url}: the connection was refused (nothing listens there): check model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) and that the server runs.`;

    expect(await tui.noticesAfter('/model', 2)).toEqual([
      `Error [MODEL_ERROR]: ${refused}`,
      'You can still choose a model by name: /model <id>.',
    ]);
    const [chosen] = await tui.noticesAfter('/model qwen2.5-coder:7b');
    expect(chosen).toBe(
      `Using qwen2.5-coder:7b for the next prompts; it could not be checked against the server's list: ${refused}`,
    );
    expect(tui.state().model).toBe('qwen2.5-coder:7b');
    tui.enter('/help');
    expect(tui.notices().at(-1)).toMatch(/^Commands\n/);
  });

  test('a model id with spaces is a usage hint', async () => {
    await using world = await ollamaWorld();
    await using tui = open(world.s.repo.path, world.env);
    tui.enter('/model qwen coder');
    expect(tui.notices().at(-1)).toBe(
      'Usage: /model <id or number>: a model id has no spaces (/model lists them).',
    );
    expect(tui.state().model).toBe('gemma3:1b');
  });
});

describe.skipIf(!hasTmux)('keel tui: /model in a terminal', () => {
  test('/model lists the models on screen; after /model <id> a prompt asks the server for that model', async () => {
    await using world = await ollamaWorld([{ text: 'Answered by qwen.' }]);
    await using tui = await startTui(['-w', world.s.repo.path], world.env, { columns: 100, rows: 30 });
    expect(statusLine(await tui.screen())).toContain('gemma3:1b');

    await tui.submit('/model');
    const listed = await tui.waitForText('Choose with /model <id or number>');
    expect(listed).toMatch(/^ {3}1 {2}qwen2\.5-coder:7b {2}128k context$/m);
    expect(listed).toMatch(/^\* {2}2 {2}gemma3:1b {9}32k context, no tools$/m);

    await tui.submit('/model qwen2.5-coder:7b');
    const chosen = await tui.waitForText('Using qwen2.5-coder:7b for the next prompts (128k context).');
    expect(statusLine(chosen)).toContain('qwen2.5-coder:7b');
    await tui.submit('Who answers?');
    await tui.waitForText('Answered by qwen.');
    expect(world.model.chatRequests.map((request) => request.model)).toEqual(['qwen2.5-coder:7b']);
  }, 30_000);
});
