// Issue #39, item 1: what a permission request shows of the call it asks about: the same id, kind and
// place as the announced call, and for an edit or a write the change it would make.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ToolUpdates } from '../src/acp/tool-updates.ts';

describe('a call announced before its permission request', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-acp-preview-'));
  const file = join(dir, 'notes.txt');
  writeFileSync(file, 'one\ntwo\ntwo\n');

  test('an edit shows its diff; the announced call and the request are the same call', async () => {
    const updates = new ToolUpdates(dir);
    const { update, toolCall } = await updates.announce('call_1', 'edit_file', {
      path: 'notes.txt',
      old_text: 'one',
      new_text: 'ONE',
    });
    expect(toolCall).toMatchObject({
      toolCallId: 'call_1',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: file }],
      content: [{ type: 'diff', path: file, oldText: 'one\ntwo\ntwo\n', newText: 'ONE\ntwo\ntwo\n' }],
    });
    expect(update).toEqual({ sessionUpdate: 'tool_call', ...toolCall });
    // Once approved it runs: an update of the announced call, not a second call.
    expect(
      await updates.of({
        type: 'tool_call',
        tool_call_id: 'call_1',
        tool_name: 'edit_file',
        args: {},
      } as never),
    ).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'in_progress' }]);
  });

  test('replace_all edits every occurrence; an old_text not in the file shows no diff (the edit would fail)', async () => {
    const updates = new ToolUpdates(dir);
    const all = await updates.announce('call_2', 'edit_file', {
      path: 'notes.txt',
      old_text: 'two',
      new_text: '2',
      replace_all: true,
    });
    expect(all.toolCall.content).toEqual([
      { type: 'diff', path: file, oldText: 'one\ntwo\ntwo\n', newText: 'one\n2\n2\n' },
    ]);
    const missing = await updates.announce('call_3', 'edit_file', {
      path: 'notes.txt',
      old_text: 'zzz',
      new_text: 'y',
    });
    expect(missing.toolCall.content).toBeUndefined();
    expect(missing.toolCall.locations).toEqual([{ path: file }]);
  });

  test('a command shows its input and kind, no place', async () => {
    const { toolCall } = await new ToolUpdates(dir).announce('call_4', 'exec_command', {
      command: 'npm test',
    });
    expect(toolCall).toEqual({
      toolCallId: 'call_4',
      title: 'exec_command: npm test',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'npm test' },
    });
  });
});
