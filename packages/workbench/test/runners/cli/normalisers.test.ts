import { describe, expect, test } from 'vitest';
import {
  ClaudeEventMapper,
  CodexEventMapper,
  GeminiEventMapper,
  OpencodeEventMapper,
  parseJsonLine,
} from '../../../src/runners/cli/index.ts';

// The paths of these lines as the real agents print them: Codex's file_change paths are absolute.
const workdirs = ['/work/repo'];

describe('the normalisers, on the events the real agents print', () => {
  test('Codex: commands, MCP calls, todo lists, a retry notice and a failed turn', () => {
    const mapper = new CodexEventMapper(workdirs);
    const events = [
      { type: 'thread.started', thread_id: 't-1' },
      {
        type: 'item.completed',
        item: { id: 'i0', type: 'error', message: 'Model metadata for `m` not found.' },
      },
      {
        type: 'item.started',
        item: { id: 'i1', type: 'command_execution', command: 'ls', status: 'in_progress' },
      },
      {
        type: 'item.completed',
        item: {
          id: 'i1',
          type: 'command_execution',
          command: 'ls',
          aggregated_output: 'nope',
          exit_code: 2,
          status: 'failed',
        },
      },
      {
        type: 'item.completed',
        item: {
          id: 'i2',
          type: 'mcp_tool_call',
          server: 'docs',
          tool: 'find',
          arguments: { q: 'x' },
          result: { content: [{ type: 'text', text: 'found' }] },
          status: 'completed',
        },
      },
      {
        type: 'item.completed',
        item: {
          id: 'i3',
          type: 'file_change',
          changes: [{ path: '/work/repo/src/a.ts', kind: 'add' }],
          status: 'completed',
        },
      },
      { type: 'error', message: 'Reconnecting... 1/5' },
      { type: 'error', message: 'stream disconnected' },
      { type: 'turn.failed', error: { message: 'stream disconnected' } },
    ].flatMap((event) => mapper.map(event));
    expect(events).toEqual([
      { type: 'runner_started', runner: 'codex', runner_session_id: 't-1' },
      {
        type: 'tool_call',
        tool_call_id: 'i1',
        tool_name: 'command_execution',
        kind: 'command',
        args: { command: 'ls' },
      },
      {
        type: 'tool_result',
        tool_call_id: 'i1',
        tool_name: 'command_execution',
        kind: 'command',
        ok: false,
        result: 'nope',
      },
      { type: 'tool_call', tool_call_id: 'i2', tool_name: 'mcp__docs__find', kind: 'mcp', args: { q: 'x' } },
      {
        type: 'tool_result',
        tool_call_id: 'i2',
        tool_name: 'mcp__docs__find',
        kind: 'mcp',
        ok: true,
        result: 'found',
      },
      {
        type: 'tool_call',
        tool_call_id: 'i3',
        tool_name: 'file_change',
        kind: 'file_edit',
        args: { changes: [{ path: '/work/repo/src/a.ts', kind: 'add' }] },
        path: 'src/a.ts',
      },
      {
        type: 'tool_result',
        tool_call_id: 'i3',
        tool_name: 'file_change',
        kind: 'file_edit',
        ok: true,
        result: 'add /work/repo/src/a.ts',
      },
      { type: 'retry', attempt: 1, max_attempts: 5, error: 'Reconnecting... 1/5' },
      { type: 'error', error: { code: 'RUNNER_FAILED', message: 'stream disconnected' } },
    ]);
    expect(mapper.error?.message).toBe('stream disconnected');
  });

  test('opencode: tool kinds, a failed tool, usage summed over steps, an error', () => {
    const mapper = new OpencodeEventMapper(workdirs, ['docs']);
    const part = (extra: object) => ({ sessionID: 'ses_1', part: extra });
    const events = [
      { type: 'step_start', ...part({ type: 'step-start' }) },
      {
        type: 'tool_use',
        ...part({
          tool: 'bash',
          callID: 'c1',
          state: { status: 'error', input: { command: 'x' }, error: 'boom' },
        }),
      },
      {
        type: 'tool_use',
        ...part({ tool: 'docs_find', callID: 'c2', state: { status: 'completed', input: {}, output: 'ok' } }),
      },
      { type: 'step_finish', ...part({ tokens: { input: 10, output: 2, reasoning: 1 }, cost: 0.5 }) },
      { type: 'step_finish', ...part({ tokens: { input: 20, output: 3, reasoning: 0 }, cost: 0.25 }) },
      { type: 'error', sessionID: 'ses_1', error: { name: 'APIError', data: { message: 'Bad request' } } },
    ].flatMap((event) => mapper.map(event));
    expect(events.map((event) => event.type)).toEqual([
      'runner_started',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'error',
    ]);
    expect(events[2]).toMatchObject({ kind: 'command', ok: false, result: 'boom' });
    expect(events[3]).toMatchObject({ tool_name: 'docs_find', kind: 'mcp' });
    expect(events[5]).toEqual({ type: 'error', error: { code: 'RUNNER_FAILED', message: 'Bad request' } });
    expect(mapper.finish()).toEqual([
      { type: 'usage', usage: { input_tokens: 30, output_tokens: 6, total_tokens: 36, cost_usd: 0.75 } },
    ]);
  });

  test('Claude Code: a retry, tool kinds by name, an error result', () => {
    const mapper = new ClaudeEventMapper(workdirs);
    const assistant = (content: object[]) => ({ type: 'assistant', message: { content } });
    const events = [
      { type: 'system', subtype: 'init', session_id: 's-1' },
      {
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 10,
        error: 'server_error',
        error_status: 500,
      },
      assistant([
        { type: 'tool_use', id: 'u1', name: 'Read', input: { file_path: '/work/repo/a.txt' } },
        { type: 'tool_use', id: 'u2', name: 'Grep', input: { pattern: 'x' } },
        { type: 'tool_use', id: 'u3', name: 'TodoWrite', input: { todos: [] } },
      ]),
      {
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 'u1', content: 'hi', is_error: false }] },
      },
      {
        type: 'user',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'u2',
              content: [{ type: 'text', text: 'no' }],
              is_error: true,
            },
          ],
        },
      },
      {
        type: 'result',
        subtype: 'success',
        is_error: true,
        result: 'API Error: 401',
        session_id: 's-1',
        usage: { input_tokens: 5, output_tokens: 1 },
        total_cost_usd: 0.01,
      },
    ].flatMap((event) => mapper.map(event));
    expect(events).toContainEqual({
      type: 'retry',
      attempt: 1,
      max_attempts: 10,
      error: 'server_error (HTTP 500)',
    });
    expect(
      events.filter((event) => event.type === 'tool_call').map((event) => [event.kind, event.path]),
    ).toEqual([
      ['file_read', 'a.txt'],
      ['search', undefined],
      ['todo', undefined],
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_call_id: 'u2', ok: false, result: 'no' }),
    );
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6, cost_usd: 0.01 } },
      {
        type: 'error',
        error: { code: 'RUNNER_FAILED', message: 'API Error: 401', details: { subtype: 'success' } },
      },
    ]);
    expect(mapper.output).toBe('');
  });

  test('Gemini CLI: deltas joined into one message, a failed tool, a warning skipped, an error result', () => {
    const mapper = new GeminiEventMapper(workdirs, []);
    const events = [
      { type: 'init', session_id: 'g-1' },
      { type: 'message', role: 'assistant', content: 'Let me ', delta: true },
      { type: 'message', role: 'assistant', content: 'run it.', delta: true },
      { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 'r1', parameters: { command: 'make' } },
      { type: 'tool_result', tool_id: 'r1', status: 'error', error: { type: 'x', message: 'denied' } },
      { type: 'error', severity: 'warning', message: 'Loop detected' },
      {
        type: 'result',
        status: 'error',
        error: { type: 'API', message: 'quota' },
        stats: { input_tokens: 4, output_tokens: 2, total_tokens: 6 },
      },
    ].flatMap((event) => mapper.map(event));
    expect(events.filter((event) => event.type !== 'text_delta')).toEqual([
      { type: 'runner_started', runner: 'gemini', runner_session_id: 'g-1' },
      { type: 'message', role: 'assistant', content: 'Let me run it.' },
      {
        type: 'tool_call',
        tool_call_id: 'r1',
        tool_name: 'run_shell_command',
        kind: 'command',
        args: { command: 'make' },
      },
      {
        type: 'tool_result',
        tool_call_id: 'r1',
        tool_name: 'run_shell_command',
        kind: 'command',
        ok: false,
        result: 'denied',
      },
      { type: 'usage', usage: { input_tokens: 4, output_tokens: 2, total_tokens: 6 } },
      { type: 'error', error: { code: 'RUNNER_FAILED', message: 'quota' } },
    ]);
  });

  test('a JSON line that is not an object, or not JSON, is named; a blank one is skipped', () => {
    expect(parseJsonLine('  ', 1)).toBeUndefined();
    expect(parseJsonLine('42', 3)).toMatchObject({
      ok: false,
      error: { code: 'RUNNER_OUTPUT_INVALID', details: { line: 3, reason: 'not a JSON object' } },
    });
    const long = parseJsonLine(`{${'x'.repeat(500)}`, 4);
    expect(long?.ok === false && long.error.message.length).toBeLessThan(400);
  });
});
