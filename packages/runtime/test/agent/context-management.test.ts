import type { ChatRequestBody, ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { prunedMark, summaryMark, summaryRequestEnd } from '../../src/context/index.ts';
import type { RuntimeEvent, Step } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

// A small context budget (config `context`): an 8000-token window, 80% of it is 6400 tokens.
const config = { context: { windows: { 'mock-model': 8000 }, threshold: 0.8, keep_tool_outputs: 1 } };
const limit = 6400;
const task = 'Read a.txt, b.txt and c.txt and tell me what they hold.';
const files = {
  '.runtime/config.json': JSON.stringify(config),
  // read_file numbers the lines: about 2000 tokens each.
  'a.txt': 'alpha line\n'.repeat(400),
  'b.txt': 'bravo line\n'.repeat(400),
  'c.txt': 'charlie line\n'.repeat(360),
};

/**
 * A turn that narrates at length (what pruning leaves alone: 376 repeats are about 1600 tokens) and
 * reads a file. With 1600-token turns the third turn only needs pruning, the fourth a compaction too.
 */
const readTurn = (file: string, narration: number): ScriptedReply => ({
  text: `Now reading ${file}. ${`(notes on ${file}) `.repeat(narration)}`,
  toolCalls: [{ name: 'read_file', arguments: { path: file } }],
});
const afterTool = (reply: ScriptedReply): ScriptedReply => ({ when: { lastRole: 'tool' }, ...reply });
const summary: ScriptedReply = {
  when: { lastMessageIncludes: summaryRequestEnd },
  text: 'SUMMARY: the task is to read three files; a.txt and b.txt are read (alpha, bravo lines); c.txt is next.',
};

/** The model's own rough count of a request (the mock model's usage: characters / 4 of its messages). */
const promptTokens = (body: ChatRequestBody) => Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
const texts = (body: ChatRequestBody) => (body.messages ?? []).map((message) => String(message.content));
const isSummaryRequest = (body: ChatRequestBody) => texts(body).at(-1)!.includes(summaryRequestEnd);

function ofType<T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) {
  return events.filter((event): event is Extract<RuntimeEvent, { type: T }> => event.type === type);
}

describe('context management', () => {
  test('prune, then compact: the history stays under the budget, keeps the task, and a fork continues from it', async () => {
    await using h = await startHarness(
      [
        summary,
        readTurn('a.txt', 376),
        afterTool(readTurn('b.txt', 376)),
        afterTool(readTurn('c.txt', 376)),
        afterTool({ text: 'They hold alpha, bravo and charlie lines.' }),
      ],
      files,
    );
    const { events, result, error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toBeUndefined();
    expect(result!.output).toBe('They hold alpha, bravo and charlie lines.');

    // Pruning came first (twice: each time it sufficed for a while), then the compaction.
    const prunes = ofType(events, 'prune');
    const [compact] = ofType(events, 'compact');
    expect(prunes).toHaveLength(2);
    expect(ofType(events, 'compact')).toHaveLength(1);
    expect(types.indexOf('prune')).toBeLessThan(types.indexOf('compact'));
    expect(types.lastIndexOf('prune')).toBeLessThan(types.indexOf('compact'));
    for (const prune of prunes) {
      expect(prune.pruned_count).toBeGreaterThan(0);
      expect(prune.estimated_tokens_saved).toBeGreaterThan(0);
    }
    // system, task, 3 × (call, output) → system, task, summary, last call, its output.
    expect(compact).toMatchObject({ original_messages: 8, compacted_messages: 5 });
    expect(compact!.estimated_tokens_saved).toBeGreaterThan(0);

    // The summary was asked of the same model, with the task and what to keep.
    const requests = h.model.chatRequests;
    const summaryAt = requests.findIndex(isSummaryRequest);
    expect(summaryAt).toBeGreaterThan(0);
    const summaryRequest = requests[summaryAt]!;
    expect(summaryRequest.model).toBe('mock-model');
    expect(summaryRequest.tools).toBeUndefined();
    expect(texts(summaryRequest)[0]).toMatch(/task.*\n.*decisions.*\n.*file/s);
    expect(texts(summaryRequest)[1]).toContain(task);

    // The next turn: system prompt, the task word for word, the summary, the recent turn; under budget.
    const next = requests[summaryAt + 1]!;
    const sent = texts(next);
    expect(next.messages).toHaveLength(5);
    expect(next.messages![0]!.role).toBe('system');
    expect(sent[1]).toBe(task);
    expect(sent[2]).toContain(summaryMark);
    expect(sent[2]).toContain('SUMMARY: the task is to read three files');
    expect(sent[4]).toContain('charlie line');
    expect(sent.join('\n')).not.toContain('(notes on a.txt)');
    expect(promptTokens(next)).toBeLessThan(limit);
    // Before it, the history had grown past the budget.
    expect(promptTokens(requests[summaryAt - 1]!)).toBeGreaterThan(promptTokens(next));
    // The summary's tokens are part of the run's usage.
    expect(result!.usage.total_tokens).toBeGreaterThan(0);

    // Each rewrite is a step of its own, checkpointed: fork from the one after the compaction.
    const [run] = await h.runtime.runs.list();
    const steps: Step[] = await h.runtime.runs.steps(run!.id);
    const compactStep = steps.find((step) => step.kind === 'context' && step.detail.action === 'compact');
    expect(compactStep?.status).toBe('succeeded');
    expect(steps.filter((step) => step.kind === 'context' && step.detail.action === 'prune')).toHaveLength(
      prunes.length,
    );
    const checkpoint = (await h.runtime.runs.checkpoints(run!.id)).find(
      (each) => each.step_id === compactStep!.id,
    );
    expect(checkpoint).toBeDefined();
    const fork = await h.runtime.runs.fork(checkpoint!.id);
    h.model.push(afterTool({ text: 'Forked: alpha, bravo and charlie.' }));
    const before = requests.length;
    const outcome = await h.runtime.drive(fork.id);
    expect(outcome?.run.status).toBe('succeeded');
    // The fork's first request carries the compacted history, not the original.
    const forked = h.model.chatRequests[before]!;
    expect(forked.messages).toEqual(next.messages);
    expect(texts(forked).join('\n')).not.toContain('(notes on b.txt)');
  });

  test('a long run (150 tool steps) compacts again and again: no request outgrows the window, the last ones no larger than the first', {
    timeout: 120_000,
  }, async () => {
    const steps = 150;
    const names = ['a.txt', 'b.txt', 'c.txt'] as const;
    const turns = Array.from({ length: steps }, (_, i) => afterTool(readTurn(names[i % 3]!, 376)));
    await using h = await startHarness(
      [
        { ...summary, repeat: true },
        readTurn('a.txt', 376),
        ...turns.slice(1),
        afterTool({ text: 'Read them all, again and again.' }),
      ],
      // The breaker would stop so long a run (its token budget, the same reads over and over): not this test's subject.
      {
        ...files,
        '.runtime/config.json': JSON.stringify({ ...config, circuit_breaker: { enabled: false } }),
      },
    );
    const { events, result, error } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toBeUndefined();
    expect(result!.output).toBe('Read them all, again and again.');
    expect(ofType(events, 'tool_result')).toHaveLength(steps);
    // Compacted many times over, not once: the history keeps coming back under the budget.
    expect(ofType(events, 'compact').length).toBeGreaterThan(steps / 10);
    const turnRequests = h.model.chatRequests.filter((body) => !isSummaryRequest(body));
    const sizes = turnRequests.map(promptTokens);
    expect(Math.max(...sizes)).toBeLessThan(8000);
    // Flat: the last 20 requests are no larger than the largest of the first 20 (within a few step numbers' digits).
    expect(Math.max(...sizes.slice(-20))).toBeLessThanOrEqual(Math.max(...sizes.slice(0, 20)) * 1.02);
    // Every request still carries the task word for word.
    for (const body of turnRequests) expect(texts(body)[1]).toBe(task);
  });

  test('pruning alone, when it suffices, emits only prune and asks for no summary', async () => {
    await using h = await startHarness(
      [
        summary,
        readTurn('a.txt', 150),
        afterTool(readTurn('b.txt', 150)),
        afterTool(readTurn('c.txt', 150)),
        afterTool({ text: 'Done reading.' }),
      ],
      files,
    );
    const { events, error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toBeUndefined();
    expect(types).toContain('prune');
    expect(types).not.toContain('compact');
    expect(h.model.chatRequests.some(isSummaryRequest)).toBe(false);
    expect(ofType(events, 'prune')).toMatchObject([{ pruned_count: 2 }]);
    // The last request: old outputs are placeholders, the most recent one is intact, all under budget.
    const last = h.model.chatRequests.at(-1)!;
    const outputs = (last.messages ?? []).filter((message) => message.role === 'tool').map((m) => m.content);
    expect(String(outputs[0])).toMatch(
      new RegExp(`^${prunedMark.replace('[', '\\[')} the output of read_file`),
    );
    expect(String(outputs.at(-1))).toContain('charlie line');
    expect(texts(last)[1]).toBe(task);
    expect(promptTokens(last)).toBeLessThan(limit);
  });

  test('a failed summary fails the run with a clear MODEL_ERROR; a retry continues from the pruned checkpoint', async () => {
    await using h = await startHarness(
      [
        {
          when: { lastMessageIncludes: summaryRequestEnd },
          error: { status: 400, message: 'prompt too long' },
        },
        readTurn('a.txt', 376),
        afterTool(readTurn('b.txt', 376)),
        afterTool(readTurn('c.txt', 376)),
      ],
      files,
    );
    const { error, types } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toMatchObject({ code: 'MODEL_ERROR' });
    expect((error as Error).message).toMatch(
      /^Context compaction failed: the summary request to the model failed: .*prompt too long/,
    );
    expect(types).toContain('prune');
    expect(types).not.toContain('compact');
    expect(types.at(-1)).toBe('error');
    const [run] = await h.runtime.runs.list();
    expect(run).toMatchObject({ status: 'failed', error: { code: 'MODEL_ERROR' } });
    const failed = (await h.runtime.runs.steps(run!.id)).find(
      (step) => step.kind === 'context' && step.detail.action === 'compact',
    );
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'MODEL_ERROR' } });

    // With the model answering again, a retry starts from the last checkpoint: pruned, not yet compacted.
    h.model.push(summary, afterTool({ text: 'Retried: alpha, bravo, charlie.' }));
    await h.runtime.runs.retry(run!.id);
    const retried: string[] = [];
    const outcome = await h.runtime.drive(run!.id, { onEvent: (event) => void retried.push(event.type) });
    expect(outcome?.run.status).toBe('succeeded');
    expect(retried).not.toContain('prune');
    expect(retried.filter((type) => type === 'compact')).toHaveLength(1);
    const last = h.model.chatRequests.at(-1)!;
    expect(texts(last)[1]).toBe(task);
    expect(texts(last)[2]).toContain('SUMMARY:');
  });

  test('with context management off, nothing is pruned or compacted', async () => {
    const off = { context: { ...config.context, enabled: false } };
    await using h = await startHarness(
      [summary, readTurn('a.txt', 376), afterTool(readTurn('b.txt', 376)), afterTool({ text: 'Done.' })],
      { ...files, '.runtime/config.json': JSON.stringify(off) },
    );
    const { types, error } = await h.collect({ prompt: task, include_tools: ['read_file'] });
    expect(error).toBeUndefined();
    expect(types).not.toContain('prune');
    expect(types).not.toContain('compact');
  });
});
