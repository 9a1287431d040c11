import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { codexAdapter } from '../../../src/runners/cli/index.ts';
import { ensureAgent } from './ensure-agents.ts';
import { bodyOf, configOf, secretKey, shapeOf, startAgentHarness } from './harness.ts';

let agentsDir: string;
beforeAll(async () => {
  agentsDir = await ensureAgent('codex');
}, 600_000);

// Codex offers no edit tool of its own to an unknown model; it edits with `apply_patch` through its
// command tool, which it recognises and reports as a file_change item.
const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-hi\n+hello codex\n*** End Patch\n';

describe('the Codex runner against the Responses API of the scripted model', () => {
  test('edits a file, reports the edit, usage and its thread id, and resumes that thread', async () => {
    await using harness = await startAgentHarness(
      codexAdapter,
      () => [
        { toolCalls: [{ name: 'exec_command', arguments: { cmd: `apply_patch <<'EOF'\n${patch}EOF\n` } }] },
        { when: { lastRole: 'tool' }, text: 'Changed the greeting.' },
        { when: { lastMessageIncludes: 'And now?' }, text: 'Still hello.' },
      ],
      { agentsDir },
    );
    const url = harness.model.url;
    const first = await harness.run({ model: { model: 'mock-model', baseUrl: url, apiKey: secretKey } });

    expect(first.outcome).toMatchObject({ status: 'succeeded', output: 'Changed the greeting.' });
    expect(await readFile(join(harness.repo.path, 'a.txt'), 'utf8')).toBe('hello codex\n');
    expect(shapeOf(first.events)).toEqual([
      'runner_started',
      'tool_call file_change file_edit a.txt',
      'tool_result file_change file_edit true',
      'message assistant',
      'usage',
    ]);
    const threadId = first.outcome.runnerSessionId;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.events[0]).toEqual({ type: 'runner_started', runner: 'codex', runner_session_id: threadId });
    expect(first.outcome.usage?.input_tokens).toBeGreaterThan(0);
    expect(harness.model.requests.every((request) => request.protocol === 'responses')).toBe(true);
    expect(harness.model.requests[0]?.headers.authorization).toBe(`Bearer ${secretKey}`);
    expect(JSON.stringify(first)).not.toContain(secretKey);

    const second = await harness.run({
      prompt: 'And now?',
      resumeSessionId: threadId,
      model: { model: 'mock-model', baseUrl: url, apiKey: secretKey },
    });
    expect(second.outcome).toMatchObject({
      status: 'succeeded',
      output: 'Still hello.',
      runnerSessionId: threadId,
    });
    // The resumed turn carries the first one: the model sees the earlier answer.
    expect(JSON.stringify(harness.model.requests.at(-1)?.body)).toContain('Changed the greeting.');
    expect(harness.model.remaining).toBe(0);
  }, 120_000);
  test('an image of the request reaches the model, and instructions precede the prompt', async () => {
    await using harness = await startAgentHarness(codexAdapter, () => [{ text: 'A red pixel.' }], {
      agentsDir,
    });
    // A 1×1 PNG.
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const { outcome } = await harness.run({
      prompt: 'What is in the image?',
      instructions: 'Answer in four words.',
      images: [{ data: png, media_type: 'image/png', filename: '../../etc/pixel.png' }],
      model: { model: 'mock-model', baseUrl: harness.model.url, apiKey: secretKey },
    });
    expect(outcome).toMatchObject({ status: 'succeeded', output: 'A red pixel.' });
    const input = JSON.stringify(bodyOf(harness.model.requests.at(-1)).input);
    expect(input).toContain('data:image/png;base64,');
    expect(input).toContain('<instructions>\\nAnswer in four words.\\n</instructions>');
  }, 120_000);

  test('check finds the installed program and answers its version', async () => {
    await using harness = await startAgentHarness(codexAdapter, () => [], { agentsDir });
    expect(await harness.runner.check(configOf('codex'))).toEqual({
      kind: 'codex',
      usable: true,
      version: '0.169.0',
    });
  }, 60_000);
});
