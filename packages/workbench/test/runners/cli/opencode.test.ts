import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { opencodeAdapter } from '../../../src/runners/cli/index.ts';
import { ensureAgent } from './ensure-agents.ts';
import { configOf, secretKey, shapeOf, startAgentHarness } from './harness.ts';

let agentsDir: string;
beforeAll(async () => {
  agentsDir = await ensureAgent('opencode');
}, 600_000);

describe('the opencode runner against the chat completions of the scripted model', () => {
  test('edits a file, reports the edit, usage and its session id, and resumes that session', async () => {
    await using harness = await startAgentHarness(
      opencodeAdapter,
      () => [
        // Only asked when opencode wants a title (the runner gives one, so normally never): kept apart by `when`.
        { when: { lastMessageIncludes: 'title' }, text: 'Greeting change' },
        {
          when: { lastMessageIncludes: '-starts with a dash' },
          toolCalls: [
            { name: 'edit', arguments: { filePath: 'a.txt', oldString: 'hi', newString: 'hello opencode' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Changed the greeting.' },
        { when: { lastMessageIncludes: 'And now?' }, text: 'Still hello.' },
      ],
      { agentsDir },
    );
    const model = { model: 'mock-model', baseUrl: harness.model.url, apiKey: secretKey };
    // A prompt that starts with a dash must reach the agent as the prompt, not as a flag.
    const first = await harness.run({ prompt: '-starts with a dash: change the greeting', model });

    expect(first.outcome).toMatchObject({ status: 'succeeded', output: 'Changed the greeting.' });
    expect(await readFile(join(harness.repo.path, 'a.txt'), 'utf8')).toBe('hello opencode\n');
    expect(shapeOf(first.events)).toEqual([
      'runner_started',
      'tool_call edit file_edit a.txt',
      'tool_result edit file_edit true',
      'message assistant',
      'usage',
    ]);
    const sessionId = first.outcome.runnerSessionId;
    expect(sessionId).toMatch(/^ses_/);
    expect(first.events[0]).toEqual({
      type: 'runner_started',
      runner: 'opencode',
      runner_session_id: sessionId,
    });
    expect(first.outcome.usage?.total_tokens).toBeGreaterThan(0);
    expect(harness.model.requests.every((request) => request.protocol === 'chat')).toBe(true);
    expect(harness.model.requests[0]?.headers.authorization).toBe(`Bearer ${secretKey}`);
    expect(JSON.stringify(first)).not.toContain(secretKey);

    const second = await harness.run({ prompt: 'And now?', resumeSessionId: sessionId, model });
    expect(second.outcome).toMatchObject({
      status: 'succeeded',
      output: 'Still hello.',
      runnerSessionId: sessionId,
    });
    expect(JSON.stringify(harness.model.chatRequests.at(-1)?.messages)).toContain('Changed the greeting.');
  }, 180_000);
  test('check finds the installed program and answers its version', async () => {
    await using harness = await startAgentHarness(opencodeAdapter, () => [], { agentsDir });
    expect(await harness.runner.check(configOf('opencode'))).toEqual({
      kind: 'opencode',
      usable: true,
      version: '1.18.33',
    });
  }, 60_000);
});
