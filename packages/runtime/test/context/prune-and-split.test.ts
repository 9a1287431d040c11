import { describe, expect, test } from 'vitest';
import {
  estimateMessageTokens,
  estimateTokens,
  prunedMark,
  pruneToolOutputs,
  splitHistory,
  summaryRequestEnd,
  summaryTranscript,
} from '../../src/context/index.ts';
import type { ChatMessage } from '../../src/model/index.ts';

const big = (label: string) => `${label} `.repeat(200);

/** system, task, then `turns` tool turns reading file<n>, each with its output. */
function conversation(turns: number): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are Keel.' },
    { role: 'user', content: 'Read every file.' },
  ];
  for (let turn = 1; turn <= turns; turn++) {
    messages.push({
      role: 'assistant',
      content: `Reading file${turn}.`,
      tool_calls: [{ id: `call_${turn}`, name: 'read_file', arguments: `{"path":"file${turn}"}` }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${turn}`, content: big(`output${turn}`) });
  }
  return messages;
}

describe('token estimate', () => {
  test('about four characters a token, plus each message, its tool calls and its images', () => {
    expect(estimateMessageTokens({ role: 'user', content: 'x'.repeat(400) })).toBe(104);
    const image = { data: 'A'.repeat(100_000), media_type: 'image/png' };
    expect(estimateMessageTokens({ role: 'user', content: '', images: [image] })).toBe(1004);
    expect(
      estimateMessageTokens({
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', name: 'read_file', arguments: '{"path":"a"}' }],
      }),
    ).toBe(4 + 4 + 6);
    expect(estimateTokens(conversation(2))).toBeGreaterThan(2 * 400);
  });
});

describe('pruning old tool outputs', () => {
  test('old outputs become a placeholder naming the tool; the most recent ones stay intact', () => {
    const messages = conversation(4);
    const result = pruneToolOutputs(messages, 2);
    expect(result.pruned_count).toBe(2);
    const outputs = result.messages.filter((message) => message.role === 'tool').map((m) => m.content);
    expect(outputs[0]).toMatch(/^\[Pruned to save context: the output of read_file \(about \d+ tokens\)/);
    expect(outputs[1]!.startsWith(prunedMark)).toBe(true);
    expect(outputs[2]).toBe(big('output3'));
    expect(outputs[3]).toBe(big('output4'));
    expect(result.estimated_tokens_saved).toBe(estimateTokens(messages) - estimateTokens(result.messages));
    // The calls stay; the input is not changed.
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(4);
    expect(messages[3]!.content).toBe(big('output1'));
  });

  test('pruning again finds nothing; short outputs and outputs the model has not seen are kept', () => {
    const once = pruneToolOutputs(conversation(3), 1).messages;
    expect(pruneToolOutputs(once, 1).pruned_count).toBe(0);
    const short = conversation(2).map((message) =>
      message.role === 'tool' ? { ...message, content: 'ok' } : message,
    );
    expect(pruneToolOutputs(short, 0).pruned_count).toBe(0);
    // keep 0 still keeps the last batch: the model has not seen it yet.
    const result = pruneToolOutputs(conversation(3), 0);
    expect(result.pruned_count).toBe(2);
    expect(result.messages.at(-1)!.content).toBe(big('output3'));
  });
});

describe('splitting a history for compaction', () => {
  test('keeps the system prompt, the task and the latest turns within the budget, whole', () => {
    const messages = conversation(5);
    const turn = estimateTokens(messages.slice(-2));
    const split = splitHistory(messages, 1, turn * 2 + 10)!;
    expect(split.system).toEqual(messages[0]);
    expect(split.task).toEqual(messages[1]);
    expect(split.recent).toEqual(messages.slice(-4));
    expect(split.older).toEqual(messages.slice(2, -4));
  });

  test('at least the last turn is kept, and a cut never separates a call from its result', () => {
    const messages = conversation(3);
    const split = splitHistory(messages, 1, 1)!;
    expect(split.recent).toEqual(messages.slice(-2));
    expect(split.recent[0]!.role).toBe('assistant');
  });

  test('earlier session turns before the task are summarised too; nothing older: null', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are Keel.' },
      { role: 'user', content: 'An earlier request.' },
      { role: 'assistant', content: 'An earlier answer.' },
      ...conversation(1).slice(1),
    ];
    const split = splitHistory(messages, 3, 1)!;
    expect(split.task.content).toBe('Read every file.');
    expect(split.older.map((message) => message.content)).toEqual([
      'An earlier request.',
      'An earlier answer.',
    ]);
    expect(splitHistory(conversation(1), 1, 1_000_000)).toBeNull();
    expect(splitHistory(conversation(1), 1, 1)).toBeNull();
    expect(splitHistory(conversation(2), -1, 1)).toBeNull();
  });

  test('the summary request shows the task and each older message, long ones clipped', () => {
    const messages = conversation(3);
    messages[3] = { role: 'tool', tool_call_id: 'call_1', content: 'y'.repeat(10_000) };
    const text = summaryTranscript(splitHistory(messages, 1, 1)!);
    expect(text).toContain('# The task\nRead every file.');
    expect(text).toContain('[assistant called read_file] {"path":"file1"}');
    expect(text).toContain('[result of read_file] yyyy');
    expect(text).toContain('[…6000 more characters]');
    expect(text).not.toContain('output3');
    expect(text.endsWith(summaryRequestEnd)).toBe(true);
  });
});
