import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { pathWithout } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startAcp, textOf } from './acp-client.ts';
import { jsonLines, keel, keelJson, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

const keelWebBin = fileURLToPath(new URL('../../server/bin/keel-web.js', import.meta.url));

describe('keel acp, driven by an ACP client over stdio', () => {
  test('a multi-turn session: reads through the editor, edits, runs commands on approval, cancels, loads after a restart', {
    timeout: 90_000,
  }, async () => {
    await using s = await scenario(
      [
        {
          when: { lastMessageIncludes: 'read the notes' },
          toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
        },
        { when: { lastMessageIncludes: 'UNSAVED BUFFER' }, text: 'The notes say: unsaved buffer text.' },
        {
          when: { lastMessageIncludes: 'write and run' },
          toolCalls: [
            { name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } },
            { name: 'exec_command', arguments: { command: 'ls out.txt' } },
            { name: 'exec_command', arguments: { command: 'pwd' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Wrote, listed, and was refused once.' },
        { when: { lastMessageIncludes: 'take your time' }, delayMs: 60_000, text: 'too late' },
        { when: { lastMessageIncludes: 'after the restart' }, text: 'Still the same session.' },
      ],
      { files: { 'notes.txt': 'on disk\n' } },
    );
    // Commands need a human's approval: the editor is asked.
    await writeFile(
      join(s.home, 'config.json'),
      JSON.stringify({ security: { require_approval: ['exec_command', 'write_file'] } }),
    );
    // An editor with notes.txt open and unsaved; out.txt it does not have (nor does the disk): a new file.
    const acp = startAcp(s.env, ['allow_once', 'allow_once', 'reject_once'], [], {
      buffers: { [join(s.repo.path, 'notes.txt')]: 'UNSAVED BUFFER TEXT\n' },
    });
    let sessionId = '';
    try {
      const init = await acp.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: false } },
      });
      expect(init.agentCapabilities).toMatchObject({
        loadSession: true,
        promptCapabilities: { image: true, embeddedContext: true },
      });
      ({ sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] }));
      expect(sessionId).toMatch(/^ses_/);

      // Turn 1: read_file reads the editor's buffer, not the disk.
      const first = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'read the notes' }],
      });
      expect(first.stopReason).toBe('end_turn');
      expect(acp.fsReads).toEqual([join(s.repo.path, 'notes.txt')]);
      expect(textOf(acp.updates, 'agent_message_chunk')).toContain('unsaved buffer text');
      const read = acp.updates.find(({ update }) => update.sessionUpdate === 'tool_call');
      expect(read?.update).toMatchObject({
        kind: 'read',
        status: 'in_progress',
        locations: [{ path: join(s.repo.path, 'notes.txt') }],
      });

      // Turn 2: an edit shown as a diff; one command approved, one rejected, both through the editor.
      acp.updates.length = 0;
      const second = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'write and run' }],
      });
      expect(second.stopReason).toBe('end_turn');
      expect(await readFile(join(s.repo.path, 'out.txt'), 'utf8')).toBe('hello\n');
      const finished = acp.updates
        .map(({ update }) => update)
        .filter((update) => update.sessionUpdate === 'tool_call_update' && update.status !== 'in_progress');
      expect(finished[0]).toMatchObject({
        status: 'completed',
        content: [
          { type: 'diff', path: join(s.repo.path, 'out.txt'), oldText: null, newText: 'hello\n' },
          { type: 'content' },
        ],
      });
      expect(acp.permissions).toHaveLength(3);
      expect(acp.permissions[1]).toContain('Allow exec_command');
      // Issue #39, item 1: the write is announced before it is asked about, and the request shows the same
      // call with its kind, where it writes and the change it would make, so the editor shows the diff first.
      const [write] = acp.permissionCalls;
      expect(write).toMatchObject({
        kind: 'edit',
        status: 'pending',
        locations: [{ path: join(s.repo.path, 'out.txt') }],
        content: [{ type: 'diff', path: join(s.repo.path, 'out.txt'), oldText: null, newText: 'hello\n' }],
        rawInput: { path: 'out.txt', content: 'hello\n' },
      });
      const id = write?.toolCallId ?? '';
      expect(acp.heard.filter((line) => line.endsWith(` ${id}`))).toEqual([
        `tool_call ${id}`,
        `permission ${id}`,
        `tool_call_update ${id}`,
        `tool_call_update ${id}`,
      ]);
      expect(JSON.stringify(finished[1])).toContain('out.txt');
      expect(JSON.stringify(finished[2])).toContain('Not run: the user rejected this call');

      // Turn 3: cancelled while the model is still answering.
      const asked = s.model.chatRequests.length;
      const slow = acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'take your time' }],
      });
      await waitFor(() => s.model.chatRequests.length > asked);
      await acp.agent.notify('session/cancel', { sessionId });
      expect((await slow).stopReason).toBe('cancelled');
    } finally {
      await acp.stop();
    }

    // A new process loads the session: its conversation is replayed, and it goes on.
    const again = startAcp(s.env, []);
    try {
      await again.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      await again.agent.request('session/load', { sessionId, cwd: s.repo.path, mcpServers: [] });
      expect(textOf(again.updates, 'user_message_chunk')).toContain('read the notes');
      expect(textOf(again.updates, 'agent_message_chunk')).toContain('Wrote, listed');
      const next = await again.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'after the restart' }],
      });
      expect(next.stopReason).toBe('end_turn');
      const history = JSON.stringify(s.model.chatRequests.at(-1)?.messages);
      expect(history).toContain('read the notes');
      expect(history).toContain('write and run');
    } finally {
      await again.stop();
    }

    // The runs are ordinary runs: keel lists them and replays their events.
    const { runs } = await keelJson<{ runs: { id: string; status: string }[] }>(['runs', 'list'], s.env);
    expect(runs.map((run) => run.status).sort()).toEqual([
      'cancelled',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const second = runs.at(-2)!.id;
    const replay = await keel(['runs', 'watch', second, '--json'], s.env);
    const events = jsonLines<{ type: string; seq?: number }>(replay.stdout).map(
      ({ seq: _seq, ...event }) => event,
    );
    expect(events[0]?.type).toBe('session_start');
    expect(events.map((event) => event.type)).toContain('interaction_request');

    // keel-web, over the same store, serves the same events.
    const web = spawn(process.execPath, [keelWebBin, 'run', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...s.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      web.stdout.on('data', (chunk) => (out += chunk));
      const url = await waitFor(() => out.match(/listening on (http:\/\/\S+)/)?.[1]);
      const sse = await (await fetch(`${url}/runtime/runs/${second}/events`)).text();
      const served = sse
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as { seq?: number })
        .map(({ seq: _seq, ...event }) => event);
      expect(served).toEqual(events);
    } finally {
      web.kill('SIGTERM');
    }
  });

  test('the editor picks the mode and the model of a session', { timeout: 60_000 }, async () => {
    await using s = await scenario([{ text: 'Looked.', repeat: true }]);
    const acp = startAcp(s.env, []);
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const created = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
      expect(created.modes?.currentModeId).toBe('default');
      expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(['default', 'read-only']);
      expect(created.configOptions?.[0]).toMatchObject({
        id: 'model',
        category: 'model',
        currentValue: 'mock-model',
      });
      const { sessionId } = created;

      // Read-only: the run goes without the tools that change files or run commands.
      await acp.agent.request('session/set_mode', { sessionId, modeId: 'read-only' });
      await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'look around' }],
      });
      const offered = (s.model.chatRequests.at(-1)?.tools ?? []).map((tool) => tool.function?.name);
      expect(offered).toContain('read_file');
      expect(offered).not.toContain('write_file');
      expect(offered).not.toContain('exec_command');
      await acp.agent.request('session/set_mode', { sessionId, modeId: 'default' });
      await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'look again' }],
      });
      expect((s.model.chatRequests.at(-1)?.tools ?? []).map((tool) => tool.function?.name)).toContain(
        'write_file',
      );

      // Unknown modes and models are refused, naming what is allowed.
      await expect(acp.agent.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toThrow(
        /default or read-only/,
      );
      await expect(
        acp.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'gpt-nope' }),
      ).rejects.toThrow(/mock-model/);
      const chosen = await acp.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: 'mock-model',
      });
      expect(chosen.configOptions[0]).toMatchObject({ currentValue: 'mock-model' });
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'once more' }] });
      expect(s.model.chatRequests.at(-1)?.model).toBe('mock-model');
    } finally {
      await acp.stop();
    }
  });
  test.each([
    { flags: [], asked: true },
    { flags: ['--unconfined-commands', 'refuse'], asked: false },
  ])(
    'with no sandbox, a command that writes is asked of the editor, or refused with $flags',
    {
      timeout: 60_000,
    },
    async ({ flags, asked }) => {
      const command = 'node mark.js';
      await using s = await scenario(
        [
          {
            when: { lastMessageIncludes: 'make a marker' },
            toolCalls: [{ name: 'exec_command', arguments: { command } }],
          },
          { when: { lastRole: 'tool' }, text: 'Tried.' },
        ],
        { files: { 'mark.js': "require('node:fs').writeFileSync('marker.txt', 'x');\n" } },
      );
      // A PATH without bwrap: no sandbox backend on this "machine".
      const env = { ...s.env, PATH: await pathWithout(['bwrap'], s.home) };
      const acp = startAcp(env, ['allow_once'], flags);
      try {
        await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
        const { sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
        const turn = await acp.agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'make a marker' }],
        });
        expect(turn.stopReason).toBe('end_turn');
        const result = JSON.stringify(s.model.chatRequests.at(-1)?.messages?.at(-1)?.content);
        if (asked) {
          // The editor was asked, said yes: the command ran, unconfined, because a human allowed it.
          expect(acp.permissions).toHaveLength(1);
          expect(result).toContain('Exit code: 0');
        } else {
          expect(acp.permissions).toEqual([]);
          expect(result).toMatch(/no sandbox/i);
          await expect(readFile(join(s.repo.path, 'marker.txt'))).rejects.toThrow(/ENOENT/);
        }
      } finally {
        await acp.stop();
      }
    },
  );
});
