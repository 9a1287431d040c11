// long-running: Gemini CLI starts slowly
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { geminiAdapter } from '../../../src/runners/cli/index.ts';
import { ensureAgent } from './ensure-agents.ts';
import { bodyOf, configOf, secretKey, shapeOf, startAgentHarness } from './harness.ts';

let agentsDir: string;
beforeAll(async () => {
  agentsDir = await ensureAgent('gemini');
}, 600_000);

describe('the Gemini CLI runner against the Gemini API of the scripted model', () => {
  test('edits a file, reports the edit, usage and its session id, and resumes that session', async () => {
    await using harness = await startAgentHarness(
      geminiAdapter,
      (workdir) => [
        {
          toolCalls: [
            {
              name: 'replace',
              arguments: {
                file_path: join(workdir, 'a.txt'),
                old_string: 'hi',
                new_string: 'hello gemini',
                instruction: 'Change the greeting.',
              },
            },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Changed the greeting.' },
        { when: { lastMessageIncludes: 'And now?' }, text: 'Still hello.' },
      ],
      { agentsDir },
    );
    const model = { model: 'mock-model', baseUrl: harness.model.baseUrl, apiKey: secretKey };
    const first = await harness.run({ model });

    expect(first.outcome).toMatchObject({ status: 'succeeded', output: 'Changed the greeting.' });
    expect(await readFile(join(harness.repo.path, 'a.txt'), 'utf8')).toBe('hello gemini\n');
    expect(shapeOf(first.events)).toEqual([
      'runner_started',
      'tool_call replace file_edit a.txt',
      'tool_result replace file_edit true',
      'message assistant',
      'usage',
    ]);
    const sessionId = first.outcome.runnerSessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.events[0]).toEqual({
      type: 'runner_started',
      runner: 'gemini',
      runner_session_id: sessionId,
    });
    expect(first.outcome.usage?.total_tokens).toBeGreaterThan(0);
    const calls = harness.model.requests.filter((request) => request.protocol === 'gemini');
    expect(calls[0]?.headers['x-goog-api-key']).toBe(secretKey);
    expect(JSON.stringify(first)).not.toContain(secretKey);

    const second = await harness.run({ prompt: 'And now?', resumeSessionId: sessionId, model });
    expect(second.outcome).toMatchObject({
      status: 'succeeded',
      output: 'Still hello.',
      runnerSessionId: sessionId,
    });
    const last = harness.model.requests.filter((request) => request.protocol === 'gemini').at(-1);
    expect(JSON.stringify(bodyOf(last).contents)).toContain('Changed the greeting.');
  }, 120_000);
  test('check finds the installed program and answers its version', async () => {
    await using harness = await startAgentHarness(geminiAdapter, () => [], { agentsDir });
    expect(await harness.runner.check(configOf('gemini'))).toEqual({
      kind: 'gemini',
      usable: true,
      version: '0.61.0',
    });
  }, 90_000);
});
