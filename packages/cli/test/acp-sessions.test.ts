import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROTOCOL_VERSION, type SessionNotification } from '@agentclientprotocol/sdk';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startAcp, textOf } from './acp-client.ts';
import { scenario } from './scenario.ts';

const pixel = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
  'hex',
).toString('base64');

const kinds = (updates: SessionNotification[]) => updates.map(({ update }) => update.sessionUpdate);
const commandNames = (updates: SessionNotification[]) =>
  updates.flatMap(({ update }) =>
    update.sessionUpdate === 'available_commands_update'
      ? [update.availableCommands.map((command) => command.name)]
      : [],
  );

describe('keel acp sessions: listed, forked, closed, resumed and loaded as the editor left them', () => {
  test('a session comes back after a restart with its mode, model and everything the editor was shown', {
    timeout: 120_000,
  }, async () => {
    await using s = await scenario(
      [
        {
          when: { lastMessageIncludes: 'plan and edit' },
          toolCalls: [
            {
              name: 'todo_write',
              arguments: { todos: [{ content: 'Greet the world', status: 'in_progress' }] },
            },
            {
              name: 'edit_file',
              arguments: { path: 'hello.txt', old_text: 'hello', new_text: 'hello, world' },
            },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Planned and edited.' },
        {
          when: { lastMessageIncludes: 'take your time' },
          text: 'Half an answer, then a very long tail that never ends in time',
          chunkDelayMs: 400,
        },
        { when: { lastMessageIncludes: 'in the fork' }, text: 'The fork goes on.' },
        { when: { lastMessageIncludes: 'after the restart' }, text: 'Still the same session.' },
      ],
      { files: { 'hello.txt': 'hello\n' }, chunkSize: 6 },
    );
    const acp = startAcp(s.env, [], [], {});
    let sessionId = '';
    let forkId = '';
    try {
      const init = await acp.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({
        list: {},
        resume: {},
        close: {},
        fork: {},
      });
      ({ sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] }));

      // An image in the prompt, a plan, an edit with its diff.
      await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: 'plan and edit hello.txt' },
          { type: 'image', data: pixel, mimeType: 'image/png' },
        ],
      });
      // The first prompt names the session, in the editor and in the list.
      expect(acp.updates.map(({ update }) => update)).toContainEqual(
        expect.objectContaining({ sessionUpdate: 'session_info_update', title: 'plan and edit hello.txt' }),
      );
      // Read-only mode and the model are chosen, then a turn is cancelled mid-answer.
      await acp.agent.request('session/set_mode', { sessionId, modeId: 'read-only' });
      await acp.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: 'mock-model',
      });
      const slow = acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'take your time' }],
      });
      await eventually(() => expect(textOf(acp.updates, 'agent_message_chunk')).toContain('Half an'));
      await acp.agent.notify('session/cancel', { sessionId });
      expect((await slow).stopReason).toBe('cancelled');

      // Listed in its folder, newest first, with its title; another folder lists nothing.
      const listed = await acp.agent.request('session/list', { cwd: s.repo.path });
      expect(listed.sessions).toEqual([
        expect.objectContaining({ sessionId, cwd: s.repo.path, title: 'plan and edit hello.txt' }),
      ]);
      expect(listed.sessions[0]?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect((await acp.agent.request('session/list', { cwd: s.home })).sessions).toEqual([]);

      // A fork: a new session with the conversation so far; it goes on alone, the origin is untouched.
      const fork = (await acp.agent.request(
        'session/fork' as 'session/list',
        {
          sessionId,
          cwd: s.repo.path,
          mcpServers: [],
        } as never,
      )) as unknown as { sessionId: string; modes: { currentModeId: string } };
      forkId = fork.sessionId;
      expect(forkId).not.toBe(sessionId);
      expect(fork.modes.currentModeId).toBe('read-only');
      await acp.agent.request('session/prompt', {
        sessionId: forkId,
        prompt: [{ type: 'text', text: 'in the fork' }],
      });
      const forkHistory = JSON.stringify(s.model.chatRequests.at(-1)?.messages);
      expect(forkHistory).toContain('plan and edit hello.txt');
      const both = await acp.agent.request('session/list', { cwd: s.repo.path });
      expect(both.sessions.map((session) => session.sessionId)).toEqual([forkId, sessionId]);

      // Closed: the session is no longer live in this process (it stays stored and listed).
      await acp.agent.request('session/close', { sessionId: forkId });
      await expect(
        acp.agent.request('session/prompt', {
          sessionId: forkId,
          prompt: [{ type: 'text', text: 'hello?' }],
        }),
      ).rejects.toMatchObject({ message: expect.stringContaining('session/load it first') });
    } finally {
      await acp.stop();
    }

    // Resumed in a new process: no history sent, mode and model as left.
    const resumed = startAcp(s.env, [], [], {});
    try {
      await resumed.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const state = await resumed.agent.request('session/resume', { sessionId, cwd: s.repo.path });
      expect(state.modes?.currentModeId).toBe('read-only');
      expect(state.configOptions?.[0]).toMatchObject({ id: 'model', currentValue: 'mock-model' });
      const next = await resumed.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'after the restart' }],
      });
      expect(next.stopReason).toBe('end_turn');
      // Nothing replayed on resume, and the prompt is not echoed back.
      expect(kinds(resumed.updates)).not.toContain('user_message_chunk');
      // Read-only came back for real: the run was offered no tool that writes.
      const offered = (s.model.chatRequests.at(-1)?.tools ?? []).map((tool) => tool.function?.name);
      expect(offered).toContain('read_file');
      expect(offered).not.toContain('edit_file');
    } finally {
      await resumed.stop();
    }

    // Loaded in another: everything the first editor was shown, as it was shown.
    const loaded = startAcp(s.env, [], [], {});
    try {
      await loaded.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      await loaded.agent.request('session/load', { sessionId, cwd: s.repo.path, mcpServers: [] });
      const replayed = loaded.updates.map(({ update }) => update);
      expect(replayed).toContainEqual({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'image', data: pixel, mimeType: 'image/png' },
      });
      expect(replayed).toContainEqual(
        expect.objectContaining({
          sessionUpdate: 'plan',
          entries: [expect.objectContaining({ content: 'Greet the world' })],
        }),
      );
      expect(replayed).toContainEqual(
        expect.objectContaining({
          sessionUpdate: 'tool_call',
          kind: 'edit',
          locations: [{ path: join(s.repo.path, 'hello.txt') }],
        }),
      );
      expect(replayed).toContainEqual(
        expect.objectContaining({
          sessionUpdate: 'tool_call_update',
          content: expect.arrayContaining([
            expect.objectContaining({ type: 'diff', oldText: 'hello\n', newText: 'hello, world\n' }),
          ]),
        }),
      );
      // The cancelled turn's partial answer, joined into one chunk.
      const partial = replayed.find(
        (update) =>
          update.sessionUpdate === 'agent_message_chunk' && JSON.stringify(update).includes('Half an'),
      );
      expect(partial).toBeDefined();
      expect(textOf(loaded.updates, 'agent_message_chunk')).toContain('Still the same session.');
    } finally {
      await loaded.stop();
    }
  });

  test('slash commands: Keel’s and the enabled skills’, told again when a skill is added', {
    timeout: 90_000,
  }, async () => {
    await using s = await scenario([
      {
        when: { lastMessageIncludes: 'Use the skill "release-notes"' },
        text: 'Using the release notes skill.',
      },
      { when: { lastMessageIncludes: 'add a skill' }, text: 'Done.' },
    ]);
    const acp = startAcp(s.env, [], [], {});
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
      await eventually(() => expect(commandNames(acp.updates)).toHaveLength(1));
      const first = commandNames(acp.updates)[0]!;
      expect(first.slice(0, 2)).toEqual(['init', 'skills']);
      expect(first).not.toContain('release-notes');

      // /skills is answered by Keel itself: no model request.
      const asked = s.model.chatRequests.length;
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/skills' }] });
      expect(s.model.chatRequests).toHaveLength(asked);
      expect(textOf(acp.updates, 'agent_message_chunk')).toContain('NAME');

      // A skill appears in the project: the next turn's end tells the editor the new list.
      const skillDir = join(s.repo.path, '.runtime', 'skills', 'release-notes');
      await mkdir(skillDir, { recursive: true });
      await writeFile(
        join(skillDir, 'SKILL.md'),
        '---\nname: release-notes\ndescription: Write release notes from the git log.\n---\n\nRead the log.\n',
      );
      await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'add a skill' }],
      });
      await eventually(() => expect(commandNames(acp.updates)).toHaveLength(2));
      expect(commandNames(acp.updates)[1]).toContain('release-notes');

      // The skill's command becomes a run that reads the skill and does what was asked.
      await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '/release-notes for v2' }],
      });
      expect(String(s.model.chatRequests.at(-1)?.messages?.at(-1)?.content)).toContain(
        'Use the skill "release-notes" (read it with read_skill first) for this: for v2',
      );

      // /init writes the project's configuration (not in read-only mode), then says it exists.
      await acp.agent.request('session/set_mode', { sessionId, modeId: 'read-only' });
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/init' }] });
      expect(textOf(acp.updates, 'agent_message_chunk')).toContain('Read-only mode writes nothing');
      expect(existsSync(join(s.repo.path, '.runtime', 'config.json'))).toBe(false);
      await acp.agent.request('session/set_mode', { sessionId, modeId: 'default' });
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/init' }] });
      expect(textOf(acp.updates, 'agent_message_chunk')).toContain(
        join(s.repo.path, '.runtime', 'config.json'),
      );
      // A path is a prompt, not a command.
      expect(commandNames(acp.updates)[1]).not.toContain('etc');
    } finally {
      await acp.stop();
    }
  });

  test('bad input: an unknown session, a cursor Keel did not write, fork params that are not', {
    timeout: 60_000,
  }, async () => {
    await using s = await scenario([]);
    const acp = startAcp(s.env, [], [], {});
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      await expect(
        acp.agent.request('session/resume', { sessionId: 'ses_nope', cwd: s.repo.path }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(acp.agent.request('session/list', { cursor: '../etc' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('nextCursor'),
      });
      await expect(
        acp.agent.request('session/fork' as 'session/list', { sessionId: 42 } as never),
      ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('sessionId and cwd') });
      await expect(acp.agent.request('session/close', { sessionId: 'ses_nope' })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await acp.stop();
    }
  });
});
