import type { ChatRequestBody, ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { summaryMark, summaryRequestEnd } from '../../src/context/index.ts';
import type { RuntimeEvent } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

// A server that refuses a conversation as longer than its context window makes the agent compact and ask
// again, in each server's words; the window it names is remembered for later turns and runs; and the
// refusal is final when compacting cannot help.

// A window Keel believes far larger than the server's: nothing is compacted before the server refuses.
const config = { context: { windows: { 'mock-model': 100_000 } } };
const task = 'Read a.txt and b.txt and tell me what they hold.';
const files = {
  '.runtime/config.json': JSON.stringify(config),
  // read_file numbers the lines: about 2000 tokens each.
  'a.txt': 'alpha line\n'.repeat(400),
  'b.txt': 'bravo line\n'.repeat(400),
  'c.txt': 'charlie line\n'.repeat(400),
};

const readTurn = (file: string): ScriptedReply => ({
  text: `Now reading ${file}.`,
  toolCalls: [{ name: 'read_file', arguments: { path: file } }],
});
const afterTool = (reply: ScriptedReply): ScriptedReply => ({ when: { lastRole: 'tool' }, ...reply });
const summary: ScriptedReply = {
  when: { lastMessageIncludes: summaryRequestEnd },
  text: 'SUMMARY: a.txt was read (its first letter of the alphabet); b.txt is next.',
};
const refused = (status: number, message: string): ScriptedReply => afterTool({ error: { status, message } });

const texts = (body: ChatRequestBody) => (body.messages ?? []).map((message) => String(message.content));
const isSummaryRequest = (body: ChatRequestBody) => texts(body).at(-1)!.includes(summaryRequestEnd);
const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((event): event is Extract<RuntimeEvent, { type: T }> => event.type === type);

/**
 * Each server's words for "does not fit" (map-error.ts cites where each comes from), its status, and the
 * window in them when there is one.
 */
const wordings: Array<[server: string, status: number, message: string, window: number | undefined]> = [
  [
    'OpenAI, vLLM, DeepSeek',
    400,
    "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    8192,
  ],
  ['vLLM engine', 400, 'Input prompt (9000 tokens) is too long and exceeds limit of 8192', 8192],
  ['llama.cpp', 400, 'the request exceeds the available context size, try increasing it', undefined],
  [
    'llama.cpp, older builds (a 500)',
    500,
    'the request exceeds the available context size. try increasing the context size or enable context shift',
    undefined,
  ],
  ['llama-cpp-python', 400, 'Requested tokens (9000) exceed context window of 8192', 8192],
  [
    'LM Studio',
    400,
    'The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input',
    undefined,
  ],
  [
    'LM Studio (window named)',
    400,
    'Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough.',
    8192,
  ],
  ['LM Studio, older llama.cpp', 400, 'Cannot truncate prompt with n_keep (9000) >= n_ctx (8192)', 8192],
  [
    'Mistral',
    400,
    'Prompt contains 9000 tokens and 0 draft tokens, too large for model with 8192 maximum context length',
    8192,
  ],
  [
    'OpenAI (context_length_exceeded)',
    400,
    'Your input exceeds the context window of this model. Please adjust your input and try again.',
    undefined,
  ],
  [
    'Hugging Face TGI',
    422,
    'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8192. Given: 9000 `inputs` tokens and 1000 `max_new_tokens`',
    8192,
  ],
  ['generic', 400, 'context length exceeded', undefined],
  ['generic', 400, 'too many tokens in the prompt', undefined],
];

describe('a context-length refusal compacts and asks again', () => {
  test.each(wordings)('%s (HTTP %i): "%s"', async (_server, status, message, window) => {
    await using h = await startHarness(
      [
        summary,
        readTurn('a.txt'),
        afterTool(readTurn('b.txt')),
        refused(status, message),
        afterTool({ text: 'They hold alpha and bravo lines.' }),
      ],
      files,
    );
    const { events, result, error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toBeUndefined();
    expect(result!.output).toBe('They hold alpha and bravo lines.');
    // Not retried as a failure, not an error: a compaction, then the same turn again.
    expect(types).not.toContain('retry');
    expect(types).not.toContain('error');
    const [compact] = ofType(events, 'compact');
    // system, task, 2 × (call, output) → system, task, summary, last call, its output.
    expect(compact).toMatchObject({ original_messages: 6, compacted_messages: 5 });
    expect(types.indexOf('compact')).toBeGreaterThan(types.lastIndexOf('tool_result'));

    const requests = h.model.chatRequests;
    expect(requests).toHaveLength(5);
    expect(isSummaryRequest(requests[3]!)).toBe(true);
    const again = requests[4]!;
    expect(texts(again)[1]).toBe(task);
    expect(texts(again)[2]).toContain(summaryMark);
    expect(texts(again).join('\n')).not.toContain('alpha line');
    expect(texts(again).at(-1)).toContain('bravo line');

    // The refused turn and the compaction are steps of the run: one failed, one done because of it.
    const [run] = await h.runtime.runs.list();
    const steps = await h.runtime.runs.steps(run!.id);
    const failed = steps.filter((step) => step.kind === 'model_turn' && step.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatchObject({
      code: 'MODEL_ERROR',
      details: { reason: 'context_length', ...(window === undefined ? {} : { window }) },
    });
    expect(steps.find((step) => step.kind === 'context')?.detail).toMatchObject({
      action: 'compact',
      cause: 'context_length',
    });
  });

  test('the window the server named is remembered: the next run compacts before the server refuses', async () => {
    await using h = await startHarness(
      [
        { ...summary, repeat: true },
        readTurn('a.txt'),
        refused(
          400,
          "This model's maximum context length is 4000 tokens. However, you requested 4500 tokens.",
        ),
      ],
      files,
    );
    // The first turn after a.txt is refused, and nothing older than it can be summarised: the run fails.
    const first = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(first.error).toMatchObject({
      code: 'MODEL_ERROR',
      details: { reason: 'context_length', window: 4000 },
    });
    expect(first.types).not.toContain('compact');

    // A new run on the same endpoint and model: 80 % of 4000 tokens is its budget from the start, where
    // the configured 100 000 would never have compacted. The server refuses nothing this time.
    h.model.push(
      readTurn('a.txt'),
      afterTool(readTurn('b.txt')),
      afterTool(readTurn('c.txt')),
      afterTool({ text: 'Alpha, bravo, charlie.' }),
    );
    const second = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(second.error).toBeUndefined();
    expect(second.result!.output).toBe('Alpha, bravo, charlie.');
    expect(second.types).toContain('compact');
    const steps = await h.runtime.runs.steps(
      (await h.runtime.runs.list()).find((run) => run.status === 'succeeded')!.id,
    );
    const compactions = steps.filter((step) => step.kind === 'context' && step.detail.action === 'compact');
    expect(compactions.length).toBeGreaterThan(0);
    for (const step of compactions) {
      expect(step.detail).toMatchObject({ limit: 3200 });
      expect(step.detail.cause).toBeUndefined();
    }
  });

  test('the same refusal after the compaction ends the run with the clear error', async () => {
    const words = 'the request exceeds the available context size, try increasing it';
    await using h = await startHarness(
      [summary, readTurn('a.txt'), afterTool(readTurn('b.txt')), refused(400, words), refused(400, words)],
      files,
    );
    const { events, error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toMatchObject({ code: 'MODEL_ERROR', details: { reason: 'context_length' } });
    expect((error as Error).message).toContain('no longer fits the context window of "mock-model"');
    expect(ofType(events, 'compact')).toHaveLength(1);
    expect(types.at(-1)).toBe('error');
    // One summary, two refusals: the turn was asked again once, not over and over.
    expect(h.model.chatRequests).toHaveLength(5);
    const [run] = await h.runtime.runs.list();
    expect(run).toMatchObject({ status: 'failed', error: { code: 'MODEL_ERROR' } });
  });

  test('nothing left to compact (the first turn refused) ends the run at once', async () => {
    await using h = await startHarness(
      [
        summary,
        {
          error: { status: 400, message: 'Input prompt (9000 tokens) is too long and exceeds limit of 8192' },
        },
      ],
      files,
    );
    const { error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toMatchObject({ code: 'MODEL_ERROR', details: { reason: 'context_length', window: 8192 } });
    expect(types).not.toContain('compact');
    expect(types).not.toContain('prune');
    expect(h.model.chatRequests).toHaveLength(1);
  });

  test('with context management off, the refusal ends the run as it did', async () => {
    await using h = await startHarness(
      [summary, readTurn('a.txt'), refused(400, "This model's maximum context length is 8192 tokens.")],
      { ...files, '.runtime/config.json': JSON.stringify({ context: { enabled: false } }) },
    );
    const { error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toMatchObject({ code: 'MODEL_ERROR', details: { reason: 'context_length' } });
    expect(types).not.toContain('compact');
    expect(h.model.chatRequests).toHaveLength(2);
  });
});
