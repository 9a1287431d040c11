import { describe, expect, test } from 'vitest';
import { foldTranscript, mergeEntries } from '../src/api/transcript.ts';
import type { LogEntry, SessionEvent } from '../src/api/types.ts';

const log = (...events: SessionEvent[]): LogEntry[] =>
  events.map((event, index) => ({ seq: index + 1, timestamp: '2026-11-23T00:00:00Z', event }));

describe('foldTranscript', () => {
  test('text deltas grow one assistant block that the final message replaces', () => {
    const entries = log(
      { type: 'message', role: 'user', content: 'Plan it' },
      { type: 'text_delta', content: '# Pl' },
      { type: 'text_delta', content: 'an' },
    );
    expect(foldTranscript(entries).at(-1)).toMatchObject({
      type: 'assistant',
      content: '# Plan',
      streaming: true,
    });
    const done = [
      ...entries,
      { seq: 4, timestamp: '', event: { type: 'message', role: 'assistant', content: '# Plan' } },
    ];
    const items = foldTranscript(done as LogEntry[]);
    expect(items.map((item) => item.type)).toEqual(['user', 'assistant']);
    expect(items[1]).toMatchObject({ content: '# Plan', streaming: false });
  });

  test('thinking chunks join; a tool result lands on its call; a step updates in place; errors stay', () => {
    const items = foldTranscript(
      log(
        { type: 'thinking', content: 'Let me ' },
        { type: 'thinking', content: 'think.' },
        {
          type: 'tool_call',
          tool_call_id: 'c1',
          tool_name: 'write_file',
          kind: 'file_edit',
          args: { path: 'a' },
          path: 'a',
        },
        {
          type: 'tool_result',
          tool_call_id: 'c1',
          tool_name: 'write_file',
          kind: 'file_edit',
          ok: true,
          result: 'ok',
        },
        { type: 'step', step: 'clone:web', status: 'running' },
        { type: 'step', step: 'clone:web', status: 'done', detail: 'main' },
        { type: 'error', error: { code: 'RUNNER_FAILED', message: 'boom' } },
      ),
    );
    expect(items).toMatchObject([
      { type: 'thinking', content: 'Let me think.' },
      { type: 'tool', name: 'write_file', kind: 'file_edit', path: 'a', result: { ok: true, text: 'ok' } },
      { type: 'step', step: 'clone:web', status: 'done', detail: 'main' },
      { type: 'error', error: { code: 'RUNNER_FAILED' } },
    ]);
  });
});

describe('mergeEntries', () => {
  test('the seam between replay and live shows every seq once, in order', () => {
    const replay = log(
      { type: 'text_delta', content: 'a' },
      { type: 'text_delta', content: 'b' },
      { type: 'text_delta', content: 'c' },
    );
    const live = [
      replay[2],
      { seq: 4, timestamp: '', event: { type: 'text_delta', content: 'd' } },
    ] as LogEntry[];
    const merged = mergeEntries(replay, live);
    expect(merged.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    expect(mergeEntries(merged, [replay[0] as LogEntry])).toBe(merged);
  });
});
