import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { claudeCodeAdapter } from '../../../src/runners/cli/index.ts';
import { ensureAgent } from './ensure-agents.ts';
import { bodyOf, configOf, secretKey, shapeOf, startAgentHarness } from './harness.ts';

let agentsDir: string;
beforeAll(async () => {
  agentsDir = await ensureAgent('claude-code');
}, 600_000);

describe('the Claude Code runner against the Anthropic Messages API of the scripted model', () => {
  test('edits a file, reports the edit, usage and cost and its session id, and resumes that session', async () => {
    // Replies in plain order: Claude Code ends every request with a system message of its own, so a
    // `when` on the last message would only ever see that.
    await using harness = await startAgentHarness(
      claudeCodeAdapter,
      (workdir) => [
        {
          reasoning: 'The greeting is in a.txt.',
          toolCalls: [
            {
              name: 'Edit',
              arguments: { file_path: join(workdir, 'a.txt'), old_string: 'hi', new_string: 'hello claude' },
            },
          ],
        },
        { text: 'Changed the greeting.' },
        { text: 'Still hello.' },
      ],
      { agentsDir },
    );
    const model = { model: 'mock-model', baseUrl: harness.model.baseUrl, apiKey: secretKey };
    const first = await harness.run({ model, instructions: 'Keep changes small.' });

    expect(first.outcome).toMatchObject({ status: 'succeeded', output: 'Changed the greeting.' });
    expect(await readFile(join(harness.repo.path, 'a.txt'), 'utf8')).toBe('hello claude\n');
    expect(shapeOf(first.events)).toEqual([
      'runner_started',
      'tool_call Edit file_edit a.txt',
      'tool_result Edit file_edit true',
      'message assistant',
      'usage',
    ]);
    expect(first.events).toContainEqual({ type: 'thinking', content: 'The greeting is in a.txt.' });
    const sessionId = first.outcome.runnerSessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.events[0]).toEqual({
      type: 'runner_started',
      runner: 'claude-code',
      runner_session_id: sessionId,
    });
    expect(first.outcome.usage?.input_tokens).toBeGreaterThan(0);
    expect(first.outcome.usage?.cost_usd).toBeTypeOf('number');
    const calls = harness.model.requests.filter((request) => request.protocol === 'anthropic');
    expect(calls[0]?.headers['x-api-key']).toBe(secretKey);
    // The standing instructions reach the system prompt, not the user's message.
    expect(JSON.stringify(bodyOf(calls[0]).system)).toContain('Keep changes small.');
    expect(JSON.stringify(first)).not.toContain(secretKey);

    const second = await harness.run({ prompt: 'And now?', resumeSessionId: sessionId, model });
    expect(second.outcome).toMatchObject({
      status: 'succeeded',
      output: 'Still hello.',
      runnerSessionId: sessionId,
    });
    const last = harness.model.requests.filter((request) => request.protocol === 'anthropic').at(-1);
    expect(JSON.stringify(bodyOf(last).messages)).toContain('Changed the greeting.');
    expect(harness.model.remaining).toBe(0);
  }, 120_000);
  test('check finds the installed program and answers its version', async () => {
    await using harness = await startAgentHarness(claudeCodeAdapter, () => [], { agentsDir });
    expect(await harness.runner.check(configOf('claude-code'))).toEqual({
      kind: 'claude-code',
      usable: true,
      version: '2.1.330',
    });
  }, 60_000);
});
