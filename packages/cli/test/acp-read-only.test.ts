import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import type { ChatRequestBody } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startAcp } from './acp-client.ts';
import { keelJson, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

const toolNames = (body: ChatRequestBody | undefined) =>
  (body?.tools ?? []).map((tool) => tool.function?.name);
const firstText = (body: ChatRequestBody) =>
  String(body.messages?.find((message) => message.role === 'user')?.content ?? '');

describe('keel acp read-only mode', () => {
  test('a hijacked model changes nothing: patch, write_file, edit_file, exec_command and a sub-agent’s write are refused, each explained', {
    timeout: 90_000,
  }, async () => {
    const { promise: childDone, resolve: releaseParent } = Promise.withResolvers<void>();
    await using s = await scenario(
      [
        {
          when: { lastMessageIncludes: 'tidy up the notes' },
          toolCalls: [
            { name: 'patch', arguments: { path: 'notes.txt', patch: '@@ -1 +1 @@\n-original\n+patched\n' } },
            { name: 'write_file', arguments: { path: 'notes.txt', content: 'written\n' } },
            { name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'original', new_text: 'edited' } },
            { name: 'exec_command', arguments: { command: 'touch by-command.txt' } },
            {
              name: 'spawn_agent',
              arguments: { task: 'sub task: overwrite notes.txt', type: 'generic' },
            },
          ],
        },
        // The parent holds its turn until its sub-agent has completed.
        { when: { lastRole: 'tool', lastMessageIncludes: '"agent_id"' }, until: childDone, text: 'Done.' },
        {
          when: { lastMessageIncludes: 'sub task: overwrite notes.txt' },
          toolCalls: [
            { name: 'write_file', arguments: { path: 'notes.txt', content: 'by the sub-agent\n' } },
            { name: 'exec_command', arguments: { command: 'touch by-sub-agent.txt' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Sub-agent tried.' },
      ],
      { files: { 'notes.txt': 'original\n' } },
    );
    const acp = startAcp(s.env, ['allow_always', 'allow_always', 'allow_always']);
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
      await acp.agent.request('session/set_mode', { sessionId, modeId: 'read-only' });
      const turn = acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'tidy up the notes' }],
      });
      await waitFor(async () => {
        const { runs } = await keelJson<{ runs: { agent: unknown; status: string }[] }>(
          ['runs', 'list'],
          s.env,
        );
        return runs.some((run) => run.agent && run.status === 'succeeded');
      });
      releaseParent();
      expect((await turn).stopReason).toBe('end_turn');

      // Nothing changed, by the run or by its sub-agent.
      expect(await readFile(join(s.repo.path, 'notes.txt'), 'utf8')).toBe('original\n');
      for (const file of ['by-command.txt', 'by-sub-agent.txt']) {
        await expect(access(join(s.repo.path, file))).rejects.toThrow(/ENOENT/);
      }

      // The run was offered no tool that changes anything (by traits: patch and save_memory too).
      const offered = toolNames(s.model.chatRequests[0]);
      expect(offered).toEqual(expect.arrayContaining(['read_file', 'grep', 'spawn_agent']));
      for (const name of ['patch', 'write_file', 'edit_file', 'exec_command', 'undo_file', 'save_memory']) {
        expect(offered).not.toContain(name);
      }

      // Each refused call is explained to the editor: what, why, and how to allow it on purpose.
      const ended = acp.updates
        .map(({ update }) => update)
        .filter((update) => update.sessionUpdate === 'tool_call_update');
      const byTitle = (name: string) =>
        JSON.stringify(ended.find((update) => JSON.stringify(update.rawOutput).includes(`'${name}'`)));
      for (const [name, what] of [
        ['patch', 'writes files'],
        ['write_file', 'writes files'],
        ['edit_file', 'writes files'],
        ['exec_command', 'runs commands'],
      ]) {
        const update = byTitle(name!);
        expect(update).toContain('"status":"failed"');
        expect(update).toContain(`Refused: ${name} ${what}`);
        expect(update).toContain('Read-only mode');
        expect(update).toContain('Default mode to allow it');
      }

      // The sub-agent had the parent's exclusions: no write_file or exec_command, and its calls failed.
      const child = s.model.chatRequests.filter((body) => firstText(body).startsWith('sub task'));
      expect(toolNames(child[0])).toContain('read_file');
      for (const name of ['write_file', 'exec_command', 'patch'])
        expect(toolNames(child[0])).not.toContain(name);
      const childResults = JSON.stringify(
        child.at(-1)?.messages?.filter((message) => message.role === 'tool'),
      );
      expect(childResults).toContain("Tool 'write_file' does not exist");
      expect(childResults).toContain("Tool 'exec_command' does not exist");
      expect(acp.permissions).toEqual([]);
    } finally {
      await acp.stop();
    }
  });
});
