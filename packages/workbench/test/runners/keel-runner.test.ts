import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import type { RunnerEvent } from '../../src/runners/index.ts';
import { readOnlyTools } from '../../src/runners/keel-request.ts';
import { shapeOf, startKeelHarness } from './keel-harness.ts';

describe('KeelRunner', () => {
  test('a multi-step task reads, edits and answers: normalised events, the file changed, the run stored', async () => {
    await using h = await startKeelHarness(
      [
        {
          reasoning: 'Look at the file first.',
          toolCalls: [{ name: 'read_file', arguments: { path: 'src/greet.ts' } }],
        },
        {
          when: { lastRole: 'tool' },
          toolCalls: [
            {
              name: 'edit_file',
              arguments: { path: 'src/greet.ts', old_text: "'hello'", new_text: "'hello, world'" },
            },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Changed the greeting.' },
      ],
      { 'src/greet.ts': "export const greeting = 'hello';\n" },
    );

    const { events, outcome } = await h.run({ prompt: 'Greet the world' });

    expect(shapeOf(events)).toEqual([
      'runner_started',
      'tool_call read_file file_read src/greet.ts',
      'tool_result read_file file_read true',
      'tool_call edit_file file_edit src/greet.ts',
      'tool_result edit_file file_edit true',
      'message assistant',
      'usage',
    ]);
    const thinking = events.flatMap((event) => (event.type === 'thinking' ? [event.content] : [])).join('');
    expect(thinking).toBe('Look at the file first.');
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.content] : [])).join('');
    expect(text).toBe('Changed the greeting.');
    expect(events.at(-2)).toEqual({ type: 'message', role: 'assistant', content: 'Changed the greeting.' });
    expect(await readFile(join(h.repo.path, 'src/greet.ts'), 'utf8')).toBe(
      "export const greeting = 'hello, world';\n",
    );

    expect(outcome).toMatchObject({ status: 'succeeded', output: 'Changed the greeting.' });
    expect(outcome.runnerSessionId).toMatch(/\S/);
    expect(outcome.runId).toMatch(/^run_/);
    expect(outcome.usage?.total_tokens).toBeGreaterThan(0);
    expect(events[0]).toEqual({
      type: 'runner_started',
      runner: 'keel',
      runner_session_id: outcome.runnerSessionId,
      run_id: outcome.runId,
    });

    // Another runtime on the same RUNTIME_HOME (what `keel runs watch` opens) sees the same run.
    const other = createRuntime({ runtimeDir: h.home.path, env: {} });
    try {
      const run = await other.runs.get(outcome.runId as string);
      expect(run).toMatchObject({ status: 'succeeded', session_id: outcome.runnerSessionId });
      const stored = (await other.runs.events(run.id)).map((record) => record.event.type);
      expect(stored).toContain('done');
    } finally {
      await other.close();
    }
    // The key went to the model, and into no event.
    expect(h.model.requests[0]?.headers.authorization).toBe('Bearer sk-test-secret-key-123');
    expect(JSON.stringify(events)).not.toContain('sk-test-secret-key-123');
  });

  test('resuming with runnerSessionId continues the same Keel session', async () => {
    await using h = await startKeelHarness([
      { text: 'Plan: step one, step two.' },
      { when: { lastMessageIncludes: 'Break it down' }, text: '1. step one\n2. step two' },
    ]);
    const first = await h.run({ prompt: 'Make a plan for the feature' });
    expect(first.outcome.status).toBe('succeeded');

    const second = await h.run({
      prompt: 'Break it down',
      resumeSessionId: first.outcome.runnerSessionId as string,
    });

    expect(second.outcome).toMatchObject({
      status: 'succeeded',
      runnerSessionId: first.outcome.runnerSessionId,
    });
    expect(second.outcome.runId).not.toBe(first.outcome.runId);
    const messages = h.model.chatRequests[1]?.messages ?? [];
    const said = messages.map((message) => `${message.role}: ${JSON.stringify(message.content)}`).join('\n');
    expect(said).toContain('Make a plan for the feature');
    expect(said).toContain('Plan: step one, step two.');
    expect(said).toContain('Break it down');
  });

  test('an unknown session to resume is a failed outcome with an error event, not a throw', async () => {
    await using h = await startKeelHarness([{ text: 'never asked' }]);
    const { events, outcome } = await h.run({ resumeSessionId: 'no-such-session' });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'SESSION_NOT_FOUND' } });
    expect(shapeOf(events)).toEqual(['error SESSION_NOT_FOUND']);
    expect(h.model.requests).toHaveLength(0);
  });

  test('instructions come before the prompt in their own section; images reach the model', async () => {
    await using h = await startKeelHarness([{ text: 'Seen.' }]);
    const image = { data: Buffer.from('not really a png').toString('base64'), media_type: 'image/png' };
    await h.run({ prompt: 'What is in the picture?', instructions: 'Answer in one word.', images: [image] });
    const last = h.model.chatRequests[0]?.messages?.at(-1);
    const said = JSON.stringify(last?.content);
    expect(said).toContain('<instructions>\\nAnswer in one word.\\n</instructions>');
    expect(said.indexOf('Answer in one word.')).toBeLessThan(said.indexOf('What is in the picture?'));
    expect(said).toContain(`data:image/png;base64,${image.data}`);
  });

  test('a read-only request offers the model only tools that look, and a write is refused', async () => {
    await using h = await startKeelHarness(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'src/new.ts', content: 'x' } }] },
        { when: { lastRole: 'tool' }, text: 'Could not write.' },
      ],
      { 'src/greet.ts': "export const greeting = 'hello';\n" },
    );
    const { outcome } = await h.run({ prompt: 'Describe the structure', readOnly: true });
    expect(outcome.status).toBe('succeeded');
    const offered = (h.model.chatRequests[0]?.tools ?? []).map((tool) => tool.function?.name).sort();
    expect(offered).toEqual([...readOnlyTools].sort());
    expect(offered).toEqual(expect.arrayContaining(['glob', 'grep', 'list_directory', 'read_file']));
    expect(offered).not.toContain('write_file');
    expect(offered).not.toContain('exec_command');
    await expect(readFile(join(h.repo.path, 'src', 'new.ts'), 'utf8')).rejects.toThrow();
  });

  test('aborting the signal cancels the run: outcome cancelled, the stored run too', async () => {
    await using h = await startKeelHarness([{ text: 'too late', delayMs: 30_000 }]);
    const controller = new AbortController();
    const events: RunnerEvent[] = [];
    const running = h.runner.run(h.request({ signal: controller.signal }), async (event) => {
      events.push(event);
    });
    await h.model.waitForRequests(1);
    controller.abort();
    const outcome = await running;

    expect(outcome.status).toBe('cancelled');
    // Cancelling is no failure: no error event, and the session can be resumed later.
    expect(shapeOf(events)).toEqual(['runner_started']);
    expect(outcome.runnerSessionId).toMatch(/\S/);
    const other = createRuntime({ runtimeDir: h.home.path, env: {} });
    try {
      expect((await other.runs.get(outcome.runId as string)).status).toBe('cancelled');
    } finally {
      await other.close();
    }
  });

  test('an already aborted signal runs nothing', async () => {
    await using h = await startKeelHarness([{ text: 'never asked' }]);
    const controller = new AbortController();
    controller.abort();
    const { outcome } = await h.run({ signal: controller.signal });
    expect(outcome.status).toBe('cancelled');
    expect(h.model.requests).toHaveLength(0);
  });

  test('a model that refuses the key (401) fails the run: outcome failed and an error event', async () => {
    await using h = await startKeelHarness([
      { error: { status: 401, message: 'Incorrect API key provided: sk-test-secret-key-123' } },
    ]);
    const { events, outcome } = await h.run();
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toMatch(/AUTHENTICATION|MODEL/);
    expect(outcome.runId).toMatch(/^run_/);
    expect(shapeOf(events)).toEqual(['runner_started', `error ${outcome.error?.code}`]);
    expect(JSON.stringify({ events, outcome })).not.toContain('sk-test-secret-key-123');
  });

  test('a model failing with 500 is retried, then the run fails', async () => {
    const failure = { error: { status: 500, message: 'upstream exploded' } };
    await using h = await startKeelHarness([failure, failure, failure, failure]);
    const { events, outcome } = await h.run();
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'MODEL_ERROR' } });
    expect(shapeOf(events)).toEqual(['runner_started', 'retry', 'retry', 'retry', 'error MODEL_ERROR']);
  });

  test('a tripped circuit breaker is one error event with code CIRCUIT_BREAKER', async () => {
    await using h = await startKeelHarness([
      {
        toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }],
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      },
      { text: 'never asked' },
    ]);
    // The runtime's own config in RUNTIME_HOME: a budget of one tool step.
    await writeFile(join(h.home.path, 'config.json'), JSON.stringify({ circuit_breaker: { max_tokens: 1 } }));
    const { events, outcome } = await h.run();
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'CIRCUIT_BREAKER' } });
    expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'CIRCUIT_BREAKER' } });
  });

  test('check: usable in process, with the runtime version', async () => {
    await using h = await startKeelHarness([]);
    const availability = await h.runner.check({
      id: 'keel',
      name: 'Keel',
      kind: 'keel',
      extra_args: [],
      env: {},
    });
    expect(availability).toEqual({
      kind: 'keel',
      usable: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  test('a broken request (wrong kind) throws INVALID_PARAMS', async () => {
    await using h = await startKeelHarness([]);
    const config = { id: 'codex', name: 'Codex', kind: 'codex' as const, extra_args: [], env: {} };
    await expect(h.runner.run(h.request({ config }), async () => undefined)).rejects.toMatchObject({
      name: 'WorkbenchError',
      code: 'INVALID_PARAMS',
      status: 400,
    });
  });
});
