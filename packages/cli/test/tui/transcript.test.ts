import type { ChatMessage, RuntimeEvent } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { historyEntries } from '../../src/tui/session-history.ts';
import { applyEvent, type Entry, withDecision, withPrompt } from '../../src/tui/transcript.ts';

const session_id = 'ses_test';
const hidden = { showThinking: false };

/** Applies events in order, as the TUI does while a run streams. */
function replay(events: Array<Record<string, unknown>>, start: Entry[] = [], options = hidden): Entry[] {
  return events.reduce<Entry[]>(
    (entries, event) => applyEvent(entries, { session_id, ...event } as RuntimeEvent, options),
    start,
  );
}

describe('applyEvent', () => {
  test('text deltas join one answer; a tool call in between starts a new one', () => {
    const entries = replay(
      [
        { type: 'session_start' },
        { type: 'text_delta', content: 'Let me ' },
        { type: 'text_delta', content: 'look.' },
        { type: 'tool_call', tool_name: 'read_file', args: { path: 'a.ts' }, tool_call_id: 'call_1' },
        { type: 'tool_result', tool_name: 'read_file', tool_call_id: 'call_1', result: '1  export {}' },
        { type: 'text_delta', content: 'Done.' },
      ],
      withPrompt([], 'read a.ts'),
    );
    expect(entries).toEqual([
      { kind: 'user', text: 'read a.ts', images: [], duringRun: false },
      { kind: 'assistant', text: 'Let me look.' },
      { kind: 'tool', callId: 'call_1', name: 'read_file', args: { path: 'a.ts' }, result: '1  export {}' },
      { kind: 'assistant', text: 'Done.' },
    ]);
  });

  test('a result finds its call by id when calls run in parallel', () => {
    const entries = replay([
      { type: 'tool_call', tool_name: 'glob', args: { pattern: '*.ts' }, tool_call_id: 'a' },
      { type: 'tool_call', tool_name: 'grep', args: { pattern: 'x' }, tool_call_id: 'b' },
      { type: 'tool_result', tool_name: 'grep', tool_call_id: 'b', result: 'found' },
    ]);
    expect(entries.map((entry) => entry.kind === 'tool' && entry.result)).toEqual([null, 'found']);
  });

  test('a retry clears the partial output of the failed attempt and says so', () => {
    const entries = replay(
      [
        { type: 'thinking', content: 'hmm' },
        { type: 'text_delta', content: 'Half an ans' },
        { type: 'retry', attempt: 2, max_attempts: 4, error: 'HTTP 503' },
        { type: 'text_delta', content: 'A whole answer.' },
      ],
      withPrompt([], 'q'),
      { showThinking: true },
    );
    expect(entries.slice(1)).toEqual([
      { kind: 'notice', tone: 'warning', text: '↻ retry 1/3: HTTP 503' },
      { kind: 'assistant', text: 'A whole answer.' },
    ]);
  });

  test('thinking is shown only when enabled', () => {
    const event = [{ type: 'thinking', content: 'considering' }];
    expect(replay(event)).toEqual([]);
    expect(replay(event, [], { showThinking: true })).toEqual([{ kind: 'thinking', text: 'considering' }]);
  });

  test('done adds the output only when no answer streamed since the prompt', () => {
    const done = { type: 'done', output: 'Final.', thinking: '', tool_traces: [], usage: {}, metadata: {} };
    expect(replay([done], withPrompt([], 'q')).at(-1)).toEqual({ kind: 'assistant', text: 'Final.' });
    const streamed = replay([{ type: 'text_delta', content: 'Final.' }, done], withPrompt([], 'q'));
    expect(streamed.filter((entry) => entry.kind === 'assistant')).toHaveLength(1);
  });

  test('breaker, errors, cancellation and user input each get a line', () => {
    const entries = replay([
      { type: 'user_input_received', content: 'also the README' },
      { type: 'circuit_breaker', reason: 'max_tokens exceeded', tokens_used: 210000, cost_usd: 0.5 },
      { type: 'error', error: { code: 'MODEL_ERROR', message: 'HTTP 400' } },
      { type: 'cancelled' },
    ]);
    expect(entries).toEqual([
      { kind: 'user', text: 'also the README', images: [], duringRun: true },
      {
        kind: 'notice',
        tone: 'error',
        text: '⛔ circuit breaker: max_tokens exceeded (210000 tokens, $0.5000)',
      },
      { kind: 'notice', tone: 'error', text: 'Error [MODEL_ERROR]: HTTP 400' },
      { kind: 'notice', tone: 'warning', text: 'Cancelled.' },
    ]);
  });

  test('an interaction waits for a decision; withDecision records it', () => {
    const asked = replay([
      {
        type: 'interaction_request',
        request_id: 'apr_1',
        kind: 'approval',
        prompt: 'Allow write_file?',
        options: [],
      },
    ]);
    expect(asked[0]).toMatchObject({ kind: 'interaction', requestId: 'apr_1', decision: null });
    expect(withDecision(asked, 'apr_1', 'approved')[0]).toMatchObject({ decision: 'approved' });
    // Unchanged entries keep their identity (their rendered lines are cached by it).
    const entries = withPrompt(asked, 'x');
    expect(withDecision(entries, 'apr_1', 'approved')[1]).toBe(entries[1]);
  });

  test('does not change the array it was given', () => {
    const start = withPrompt([], 'q');
    const copy = structuredClone(start);
    replay([{ type: 'text_delta', content: 'a' }], start);
    expect(start).toEqual(copy);
  });
});

describe('historyEntries', () => {
  test('a stored conversation reads as it did live: prompts, answers, tool calls with their results', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are Keel.' },
      {
        role: 'user',
        content: 'What is in a.ts?',
        images: [{ data: 'AA==', media_type: 'image/png', filename: 'shot.png' }],
      },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1  export {}' },
      {
        role: 'assistant',
        content: 'An empty module.',
        tool_calls: [{ id: 'c2', name: 'grep', arguments: '{not json' }],
      },
    ];
    expect(historyEntries(messages)).toEqual([
      { kind: 'user', text: 'What is in a.ts?', images: ['shot.png'], duringRun: false },
      { kind: 'tool', callId: 'c1', name: 'read_file', args: { path: 'a.ts' }, result: '1  export {}' },
      { kind: 'assistant', text: 'An empty module.' },
      { kind: 'tool', callId: 'c2', name: 'grep', args: { arguments: '{not json' }, result: null },
    ]);
  });
});
