// Issue #39, item 2: one view of a file per turn. With an editor that offers `fs/*`, every file tool reads
// and changes the editor's text (unsaved changes included), and the permission preview shows that text.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import type { ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { ToolUpdates } from '../src/acp/tool-updates.ts';
import { type EditorModel, startAcp } from './acp-client.ts';
import { scenario } from './scenario.ts';

const saved = 'saved on disk\n';
const unsaved = 'unsaved in the editor\n';

/** A repo whose notes.txt is saved as `saved`, a model that runs `calls` on 'go', and an editor. */
async function editorSession(
  calls: NonNullable<ScriptedReply['toolCalls']>,
  fs: { readTextFile: boolean; writeTextFile: boolean },
  editor: (notes: string) => EditorModel,
  answers: string[] = [],
) {
  const s = await scenario(
    [
      { when: { lastMessageIncludes: 'go' }, toolCalls: calls },
      { when: { lastRole: 'tool' }, text: 'Done.' },
    ],
    { files: { 'notes.txt': saved } },
  );
  await writeFile(
    join(s.home, 'config.json'),
    JSON.stringify({ security: { require_approval: ['edit_file', 'write_file'] } }),
  );
  const notes = join(s.repo.path, 'notes.txt');
  const acp = startAcp(s.env, answers, [], editor(notes));
  const dispose = async () => {
    await acp.stop();
    await s[Symbol.asyncDispose]();
  };
  try {
    await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs } });
    const { sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
    const { stopReason } = await acp.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'go' }],
    });
    expect(stopReason).toBe('end_turn');
  } catch (error) {
    await dispose();
    throw error;
  }
  // What the model was told of its tool calls: the tool messages of its next request.
  const toolResults = (s.model.chatRequests.at(-1)?.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    );
  return {
    s,
    acp,
    notes,
    toolResults,
    disk: (name = 'notes.txt') => readFile(join(s.repo.path, name), 'utf8'),
    [Symbol.asyncDispose]: dispose,
  };
}

const readWrite = { readTextFile: true, writeTextFile: true };
const readOnly = { readTextFile: true, writeTextFile: false };

describe('keel acp: the editor is the one view of every file tool', () => {
  test('an edit of text only in the unsaved buffer is applied to it and written back through the editor', {
    timeout: 60_000,
  }, async () => {
    await using t = await editorSession(
      [
        { name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'unsaved', new_text: 'edited' } },
        { name: 'write_file', arguments: { path: 'new.txt', content: 'brand new\n' } },
      ],
      readWrite,
      (notes) => ({ buffers: { [notes]: unsaved } }),
      ['allow_once', 'allow_once'],
    );
    expect(t.toolResults).toEqual([
      'Edited notes.txt: replaced 1 occurrence.',
      'Created new.txt (10 bytes, 1 line).',
    ]);
    // The editor got the new text; the disk keeps what the user saved.
    const created = join(t.s.repo.path, 'new.txt');
    expect(t.acp.fsWrites).toEqual([
      { path: t.notes, content: 'edited in the editor\n' },
      { path: created, content: 'brand new\n' },
    ]);
    expect(t.acp.buffers[t.notes]).toBe('edited in the editor\n');
    expect(await t.disk()).toBe(saved);
    await expect(t.disk('new.txt')).rejects.toMatchObject({ code: 'ENOENT' });

    // The diff the user approves is the one applied: against the buffer, not the disk.
    expect(t.acp.permissionCalls.map((call) => call.content)).toEqual([
      [{ type: 'diff', path: t.notes, oldText: unsaved, newText: 'edited in the editor\n' }],
      [{ type: 'diff', path: created, oldText: null, newText: 'brand new\n' }],
    ]);
    const done = t.acp.updates
      .map(({ update }) => update)
      .find((update) => update.sessionUpdate === 'tool_call_update' && update.status === 'completed');
    expect(done).toMatchObject({
      content: [{ type: 'diff', path: t.notes, oldText: unsaved, newText: 'edited in the editor\n' }, {}],
    });
  });

  test('an editor that only reads: a change over unsaved work is refused, the disk unchanged', {
    timeout: 60_000,
  }, async () => {
    await using t = await editorSession(
      [
        { name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'unsaved', new_text: 'edited' } },
        { name: 'write_file', arguments: { path: 'new.txt', content: 'brand new\n' } },
      ],
      readOnly,
      (notes) => ({ buffers: { [notes]: unsaved } }),
      ['allow_once', 'allow_once'],
    );
    expect(t.toolResults[0]).toMatch(
      /^Error: The editor holds unsaved changes to notes\.txt.*Ask the user to save notes\.txt in the editor/,
    );
    expect(await t.disk()).toBe(saved);
    // A file neither the editor nor the disk has goes to disk as before.
    expect(t.toolResults[1]).toBe('Created new.txt (10 bytes, 1 line).');
    expect(await t.disk('new.txt')).toBe('brand new\n');
    expect(t.acp.fsWrites).toEqual([]);
  });

  test('a read the editor refuses reaches the model as an error, never as the disk text', {
    timeout: 60_000,
  }, async () => {
    await using t = await editorSession(
      [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
      readWrite,
      () => ({
        refuseReads: true,
      }),
    );
    expect(t.acp.fsReads).toEqual([t.notes]);
    expect(t.toolResults).toHaveLength(1);
    expect(t.toolResults[0]).toMatch(
      /^Error: The editor refused to read notes\.txt: Invalid params: Not allowed\. Keel reads files through the editor and did not read it from disk instead\./,
    );
    const told = JSON.stringify(t.s.model.chatRequests.map((request) => request.messages));
    expect(told).not.toContain('saved on disk');
  });
});

describe('the permission preview of a change, with the editor as the view', () => {
  test('the diff is against the editor text, and the finished call shows the text the editor got', async () => {
    const buffers: Record<string, string> = { '/repo/notes.txt': unsaved };
    const editor = {
      readText: async (path: string) => buffers[path],
      writeText: async (path: string, text: string) => {
        buffers[path] = text;
      },
    };
    const updates = new ToolUpdates('/repo', undefined, editor);
    const { toolCall } = await updates.announce('call_1', 'edit_file', {
      path: 'notes.txt',
      old_text: 'unsaved',
      new_text: 'edited',
    });
    expect(toolCall.content).toEqual([
      { type: 'diff', path: '/repo/notes.txt', oldText: unsaved, newText: 'edited in the editor\n' },
    ]);
    await editor.writeText('/repo/notes.txt', 'edited in the editor\n');
    const [ended] = await updates.of({
      type: 'tool_result',
      tool_call_id: 'call_1',
      tool_name: 'edit_file',
      result: 'Edited notes.txt: replaced 1 occurrence.',
    } as never);
    expect(ended).toMatchObject({
      content: [{ type: 'diff', oldText: unsaved, newText: 'edited in the editor\n' }, { type: 'content' }],
    });
  });
});
