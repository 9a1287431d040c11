// How the console folds a run's events into transcript blocks, places an API error on a form field, and
// reads a file edit from a tool call's arguments.
import type { RunEvent } from '@keel/protocol/runtime';
import type { RunEventEntry } from '@keel/web-client';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../src/api/errors.ts';
import { toolEditOf } from '../src/api/tool-edit.ts';
import { foldRunEvents, toolCatalogue } from '../src/console/api/run-transcript.ts';

import { fieldOfError } from '../src/console/field-error.ts';

type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'session_id'> : never) : never;
const records = (...events: Body[]): RunEventEntry[] =>
  events.map((event, index) => ({ seq: index + 1, event: { ...event, session_id: 's' } as RunEvent }));

// What `GET /console/info` lists: each built-in tool with its traits' kind.
const catalogue = toolCatalogue([
  { name: 'read_file', kind: 'read' },
  { name: 'edit_file', kind: 'edit' },
  { name: 'exec_command', kind: 'execute' },
  { name: 'todo_write', kind: 'think' },
]);

describe('foldRunEvents', () => {
  test('thinking joins, text streams until a tool call, the result lands on its call with the edit', () => {
    const items = foldRunEvents(
      records(
        { type: 'session_start' },
        { type: 'thinking', content: 'Let me ' },
        { type: 'thinking', content: 'look.' },
        { type: 'text_delta', content: 'Writing ' },
        { type: 'text_delta', content: 'it.' },
        {
          type: 'tool_call',
          tool_name: 'edit_file',
          tool_call_id: 'c1',
          args: { path: 'a.txt', old_text: 'x', new_text: 'y' },
        },
        {
          type: 'tool_result',
          tool_name: 'edit_file',
          tool_call_id: 'c1',
          result: 'Edited a.txt: replaced 1 occurrence.',
        },
        { type: 'tool_call', tool_name: 'exec_command', tool_call_id: 'c2', args: { command: 'false' } },
        { type: 'tool_result', tool_name: 'exec_command', tool_call_id: 'c2', result: 'Error: exit code 1' },
        { type: 'text_delta', content: 'Done' },
      ),
      catalogue,
    );
    expect(items).toMatchObject([
      { type: 'thinking', content: 'Let me look.' },
      { type: 'assistant', content: 'Writing it.', streaming: false },
      {
        type: 'tool',
        name: 'edit_file',
        kind: 'file_edit',
        path: 'a.txt',
        edit: { tool: 'edit_file', path: 'a.txt', before: 'x', after: 'y' },
        result: { ok: true },
      },
      {
        type: 'tool',
        name: 'exec_command',
        kind: 'command',
        result: { ok: false, text: 'Error: exit code 1' },
      },
      { type: 'assistant', content: 'Done', streaming: true },
    ]);
    // A finished run's last text is complete.
    expect(foldRunEvents(records({ type: 'text_delta', content: 'Done' }), catalogue, false)).toMatchObject([
      { type: 'assistant', streaming: false },
    ]);
  });

  test('a retry drops the partial text; asks, input, the breaker, cancel and done have their blocks', () => {
    const items = foldRunEvents(
      records(
        { type: 'text_delta', content: 'Half an ans' },
        { type: 'retry', attempt: 1, max_attempts: 3, error: 'connection reset' },
        { type: 'text_delta', content: 'A whole answer.' },
        {
          type: 'interaction_request',
          request_id: 'apr_1',
          kind: 'question',
          prompt: 'Which?',
          options: ['a', 'b'],
        },
        { type: 'tool_call', tool_name: 'question', tool_call_id: 'q', args: { text: 'Which?' } },
        { type: 'tool_result', tool_name: 'question', tool_call_id: 'q', result: 'The user answered: a' },
        { type: 'user_input_received', content: 'and hurry' },
        { type: 'circuit_breaker', reason: 'token budget exceeded', tokens_used: 1200, cost_usd: 0.01 },
        { type: 'error', error: { code: 'CIRCUIT_BREAKER', message: 'token budget exceeded' } },
        { type: 'cancelled' },
        {
          type: 'done',
          output: 'x',
          thinking: '',
          tool_traces: [],
          usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
          metadata: { summary: 'Did it.', confidence: 1, issues: [], next_steps: ['Test it'] },
        },
      ),
      catalogue,
    );
    expect(items.map((item) => item.type)).toEqual([
      'retry',
      'assistant',
      'ask',
      'user',
      'error',
      'meta',
      'done',
    ]);
    expect(items[1]).toMatchObject({ content: 'A whole answer.', streaming: false });
    expect(items[2]).toMatchObject({ requestId: 'apr_1', kind: 'question', options: ['a', 'b'] });
    expect(items[4]).toMatchObject({ error: { code: 'CIRCUIT_BREAKER' } });
    expect(items[6]).toMatchObject({
      usage: { total_tokens: 5 },
      summary: 'Did it.',
      nextSteps: ['Test it'],
    });
  });

  test("a tool call's kind is its traits' kind from the server's catalogue, with no table of names", () => {
    const call = (tool_name: string): Body => ({
      type: 'tool_call',
      tool_name,
      tool_call_id: tool_name,
      args: {},
    });
    const kinds = (tools: typeof catalogue) =>
      foldRunEvents(
        records(
          call('run_tests'),
          call('read_file'),
          call('todo_write'),
          call('mcp_call'),
          call('frobnicate'),
        ),
        tools,
      ).map((item) => (item.type === 'tool' ? item.kind : item.type));
    // A tool the console never heard of runs commands: it is shown as a command.
    const withRunTests = toolCatalogue([
      { name: 'run_tests', kind: 'execute' },
      { name: 'read_file', kind: 'read' },
    ]);
    expect(kinds(withRunTests)).toEqual(['command', 'file_read', 'todo', 'mcp', 'other']);
    // Without a catalogue (an older server) only the task list and MCP's tools are known, by name.
    expect(kinds(toolCatalogue())).toEqual(['other', 'other', 'todo', 'mcp', 'other']);
    // A kind this console does not know is 'other'.
    expect(toolCatalogue([{ name: 'x', kind: 'teleport' }]).get('x')).toBe('other');
  });
});

describe('fieldOfError', () => {
  const fields = ['prompt', 'workdir', 'max_cost_usd'];
  test('the field a run request problem names, or the one the message starts with', () => {
    const problem = new ApiError(400, {
      code: 'INVALID_PARAMS',
      message: 'Invalid run request: max_cost_usd: Too small',
      details: { problems: [{ field: 'max_cost_usd', message: 'Too small' }] },
    });
    expect(fieldOfError(problem, fields)).toBe('max_cost_usd');
    const validation = new ApiError(400, {
      code: 'INVALID_PARAMS',
      message: 'body.prompt: Too small',
      details: { issues: [{ field: 'body.prompt', message: 'Too small' }] },
    });
    expect(fieldOfError(validation, fields)).toBe('prompt');
    const workdir = new ApiError(400, { code: 'INVALID_PARAMS', message: 'workdir is not a directory: /x' });
    expect(fieldOfError(workdir, fields)).toBe('workdir');
    expect(
      fieldOfError(new ApiError(500, { code: 'SERVER_ERROR', message: 'Internal server error.' }), fields),
    ).toBe(null);
    expect(fieldOfError(null, fields)).toBe(null);
  });
});

describe('toolEditOf', () => {
  test('reads the three editing tools and nothing else', () => {
    expect(toolEditOf('write_file', { path: 'n.txt', content: 'hi\n' })).toEqual({
      tool: 'write_file',
      path: 'n.txt',
      content: 'hi\n',
    });
    expect(toolEditOf('patch', { path: 'n.txt', diff: '@@ -1 +1 @@\n-a\n+b\n' })).toMatchObject({
      tool: 'patch',
    });
    expect(toolEditOf('edit_file', { path: 'n.txt', old_text: 'a' })).toBeUndefined();
    expect(toolEditOf('read_file', { path: 'n.txt' })).toBeUndefined();
  });
});
