import { PathGuard } from '@keel/runtime/internal';
import { describe, expect, it } from 'vitest';
import { AcpEventMapper } from '../../../src/runners/acp/acp-events.ts';

async function mapper() {
  return new AcpEventMapper(new PathGuard('/work/ws', [], true), ['everything']);
}

describe('AcpEventMapper', () => {
  it.each([
    ['read', 'file_read'],
    ['edit', 'file_edit'],
    ['delete', 'file_edit'],
    ['move', 'file_edit'],
    ['execute', 'command'],
    ['search', 'search'],
    ['fetch', 'web'],
    ['think', 'other'],
    ['other', 'other'],
  ] as const)("maps ACP tool kind '%s' to '%s'", async (acpKind, kind) => {
    const events = (await mapper()).map({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'tool',
      kind: acpKind,
      status: 'completed',
      locations: [{ path: '/work/ws/src/a.ts' }],
      rawInput: { x: 1 },
      content: [{ type: 'content', content: { type: 'text', text: 'fine' } }],
    });
    expect(events).toEqual([
      { type: 'tool_call', tool_call_id: 'c1', tool_name: 'tool', kind, args: { x: 1 }, path: 'src/a.ts' },
      { type: 'tool_result', tool_call_id: 'c1', tool_name: 'tool', kind, ok: true, result: 'fine' },
    ]);
  });

  it('holds a pending call without input until its input comes; a failure is ok:false', async () => {
    const map = await mapper();
    expect(
      map.map({
        sessionUpdate: 'tool_call',
        toolCallId: 'c2',
        title: 'bash',
        kind: 'execute',
        status: 'pending',
      }),
    ).toEqual([]);
    expect(
      map.map({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c2',
        status: 'in_progress',
        rawInput: { command: 'ls' },
      }),
    ).toEqual([
      { type: 'tool_call', tool_call_id: 'c2', tool_name: 'bash', kind: 'command', args: { command: 'ls' } },
    ]);
    expect(
      map.map({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c2',
        status: 'failed',
        rawOutput: { output: 'no such dir' },
      }),
    ).toEqual([
      {
        type: 'tool_result',
        tool_call_id: 'c2',
        tool_name: 'bash',
        kind: 'command',
        ok: false,
        result: 'no such dir',
      },
    ]);
    expect(map.flush()).toEqual([]);
  });

  it("names an MCP server's tools mcp, keeps a path outside the workdir absolute, flushes unannounced calls", async () => {
    const map = await mapper();
    map.map({
      sessionUpdate: 'tool_call',
      toolCallId: 'c3',
      title: 'everything_echo',
      kind: 'other',
      status: 'pending',
    });
    expect(map.flush()).toEqual([
      { type: 'tool_call', tool_call_id: 'c3', tool_name: 'everything_echo', kind: 'mcp', args: {} },
    ]);
    const [call] = map.map({
      sessionUpdate: 'tool_call',
      toolCallId: 'c4',
      title: 'read',
      kind: 'read',
      status: 'in_progress',
      rawInput: { filePath: '/etc/hosts' },
    });
    expect(call).toMatchObject({ kind: 'file_read', path: '/etc/hosts' });
  });

  it('maps message and thought chunks, a plan to a thinking summary, and ignores the rest', async () => {
    const map = await mapper();
    expect(map.map({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } })).toEqual([
      { type: 'text_delta', content: 'Hi' },
    ]);
    expect(map.map({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Hmm' } })).toEqual(
      [{ type: 'thinking', content: 'Hmm' }],
    );
    expect(
      map.map({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read', priority: 'high', status: 'completed' },
          { content: 'Edit', priority: 'high', status: 'pending' },
        ],
      }),
    ).toEqual([{ type: 'thinking', content: 'Plan:\n- [completed] Read\n- [pending] Edit' }]);
    expect(map.map({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'me' } })).toEqual(
      [],
    );
    expect(map.map({ sessionUpdate: 'usage_update', used: 1, size: 2 })).toEqual([]);
    expect(map.text).toBe('Hi');
  });
});
