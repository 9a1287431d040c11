// Issue #39, item 7: every message `keel acp` sends and receives is checked against the JSON schema the ACP
// SDK publishes (acp-schema.ts; acp-client.ts's stop() fails any ACP test whose wire breaks it). Here: the
// check itself can fail, and one session through the real `keel acp` covers the whole protocol Keel speaks.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { startAcp, type WireMessage } from './acp-client.ts';
import { conformanceOf, schemaViolations } from './acp-schema.ts';
import { waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

const pixel = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
  'hex',
).toString('base64');

const client = (message: Record<string, unknown>): WireMessage => ({
  from: 'client',
  message: { jsonrpc: '2.0', ...message },
});
const agent = (message: Record<string, unknown>): WireMessage => ({
  from: 'agent',
  message: { jsonrpc: '2.0', ...message },
});

const initialize = client({
  id: 0,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {} },
});
const initialized = agent({
  id: 0,
  result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] },
});
const prompt = client({
  id: 1,
  method: 'session/prompt',
  params: { sessionId: 'ses_1', prompt: [{ type: 'text', text: 'hi' }] },
});
const update = (body: Record<string, unknown>) =>
  agent({ method: 'session/update', params: { sessionId: 'ses_1', update: body } });

describe('the ACP schema check', () => {
  test('accepts a well-formed exchange, and says which methods the stable schema lacks', () => {
    const wire = [
      initialize,
      initialized,
      prompt,
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }),
      agent({ id: 7, method: 'fs/read_text_file', params: { sessionId: 'ses_1', path: '/a.txt' } }),
      client({ id: 7, error: { code: -32002, message: 'Resource not found: /a.txt' } }),
      agent({ id: 1, result: { stopReason: 'end_turn' } }),
      client({ method: 'session/cancel', params: { sessionId: 'ses_1' } }),
      client({ id: 2, method: 'session/fork', params: { sessionId: 'ses_1', cwd: '/w', mcpServers: [] } }),
      agent({ id: 2, result: { sessionId: 'ses_2' } }),
      client({ id: 3, method: '_keel/anything', params: { free: ['form'] } }),
      agent({ id: 3, error: { code: -32601, message: 'Method not found' } }),
    ];
    expect(schemaViolations(wire)).toEqual([]);
    const stability = conformanceOf(wire).map(({ method, stable }) => `${method} ${stable}`);
    expect(stability).toEqual([
      'initialize true',
      'initialize true',
      'session/prompt true',
      'session/update true',
      'fs/read_text_file true',
      'fs/read_text_file true',
      'session/prompt true',
      'session/cancel true',
      'session/fork false',
      'session/fork false',
      '_keel/anything undefined',
      '_keel/anything undefined',
    ]);
  });

  test.each([
    {
      what: 'a session/update of a kind ACP does not have',
      wire: [update({ sessionUpdate: 'progress_bar', percent: 50 })],
      says: /#0 agent→client notification session\/update: params\/update: value of tag "sessionUpdate" must be in oneOf.*SessionUpdate\/discriminator/,
    },
    {
      what: 'a tool call with a status ACP does not have',
      wire: [update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'ls', status: 'running' })],
      says: /params\/update\/status: must be equal to constant "pending" \(got "running"\) \[schema #\/\$defs\/ToolCallStatus/,
    },
    {
      what: 'a response missing a required field',
      wire: [prompt, agent({ id: 1, result: {} })],
      says: /#1 agent→client response session\/prompt \(id 1\): result: must have required property 'stopReason' \[schema #\/\$defs\/PromptResponse\/required\]/,
    },
    {
      what: 'a response with the wrong jsonrpc version',
      wire: [initialize, agent({ jsonrpc: '1.0', id: 0, result: {} })],
      says: /#1 .*jsonrpc must be "2.0" \(got "1.0"\)/,
    },
    {
      what: 'a response with both a result and an error',
      wire: [prompt, agent({ id: 1, result: { stopReason: 'end_turn' }, error: { code: 1, message: 'x' } })],
      says: /a result or an error, not both/,
    },
    {
      what: 'a response to a request nobody sent',
      wire: [agent({ id: 9, result: { stopReason: 'end_turn' } })],
      says: /answers no request the client is waiting on \(id 9\)/,
    },
    {
      what: 'a response matched by id but sent the wrong way',
      wire: [prompt, client({ id: 1, result: { stopReason: 'end_turn' } })],
      says: /answers no request the agent is waiting on \(id 1\)/,
    },
    {
      what: 'an error without a message',
      wire: [prompt, agent({ id: 1, error: { code: -32603 } })],
      says: /error: must have required property 'message' \[schema #\/\$defs\/Error\/required\]/,
    },
    {
      what: 'a request id that is neither a string nor an integer',
      wire: [client({ id: 1.5, method: 'session/prompt', params: { sessionId: 's', prompt: [] } })],
      says: /id: must match a schema in anyOf \(got 1.5\) \[schema #\/\$defs\/RequestId\/anyOf\]/,
    },
    {
      what: 'a notification sent as a request',
      wire: [client({ id: 2, method: 'session/cancel', params: { sessionId: 's' } })],
      says: /session\/cancel is an ACP notification, sent as a request/,
    },
    {
      what: 'a method the agent must not send',
      wire: [agent({ id: 4, method: 'session/prompt', params: { sessionId: 's', prompt: [] } })],
      says: /session\/prompt is handled by the agent \(x-side\): the agent must not send it/,
    },
    {
      what: 'a method that is not ACP',
      wire: [agent({ method: 'session/progress', params: {} })],
      says: /session\/progress is not an ACP notification .*extensions start with _/,
    },
    {
      what: 'a message that is neither a request nor a response',
      wire: [agent({ id: 3 })],
      says: /neither a request or notification \(method\) nor a response/,
    },
  ])('rejects $what', ({ wire, says }) => {
    const violations = schemaViolations(wire);
    expect(violations.join('\n')).toMatch(says);
  });

  test('a bad request the agent refused is bad input on purpose; one it took is a violation', () => {
    const badNew = client({ id: 5, method: 'session/new', params: { mcpServers: [] } });
    const refused = [badNew, agent({ id: 5, error: { code: -32602, message: 'Invalid params' } })];
    expect(schemaViolations(refused)).toEqual([]);
    expect(conformanceOf(refused)[0]?.refused).toEqual({
      code: -32602,
      violations: [expect.stringContaining("must have required property 'cwd'")],
    });
    const taken = [badNew, agent({ id: 5, result: { sessionId: 'ses_1' } })];
    expect(schemaViolations(taken)).toEqual([
      expect.stringMatching(/#0 client→agent request session\/new \(id 5\): params: .*'cwd'/),
    ]);
  });
});

describe('keel acp speaks ACP as its schema says', () => {
  test('a whole session: prompts with images, a plan, a permission, modes, options, a cancel, a load, and errors', {
    timeout: 120_000,
  }, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await using s = await scenario(
      [
        {
          when: { lastMessageIncludes: 'plan, write and read' },
          toolCalls: [
            {
              name: 'todo_write',
              arguments: {
                todos: [
                  { content: 'Write out.txt', status: 'in_progress' },
                  { content: 'Read the notes', status: 'pending' },
                ],
              },
            },
            { name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } },
            { name: 'read_file', arguments: { path: 'notes.txt' } },
          ],
        },
        { when: { lastRole: 'tool' }, reasoning: 'All three went through.', text: 'Planned, wrote, read.' },
        { when: { lastMessageIncludes: 'take your time' }, until: held, text: 'too late' },
        { when: { lastMessageIncludes: 'after the restart' }, text: 'Still here.' },
      ],
      { files: { 'notes.txt': 'on disk\n' } },
    );
    await writeFile(
      join(s.home, 'config.json'),
      JSON.stringify({ security: { require_approval: ['write_file'] } }),
    );
    const notes = join(s.repo.path, 'notes.txt');
    // An editor with notes.txt open; out.txt it does not have: a "not found" error answer from the client.
    const acp = startAcp(s.env, ['allow_once'], [], { buffers: { [notes]: 'UNSAVED NOTES\n' } });
    let sessionId = '';
    try {
      await acp.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
      });
      ({ sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] }));
      const turn = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: 'plan, write and read' },
          { type: 'image', data: pixel, mimeType: 'image/png' },
        ],
      });
      expect(turn.stopReason).toBe('end_turn');
      expect(acp.permissions).toHaveLength(1);
      expect(acp.fsReads).toContain(notes);
      expect(acp.fsWrites).toEqual([{ path: join(s.repo.path, 'out.txt'), content: 'hello\n' }]);

      await acp.agent.request('session/set_mode', { sessionId, modeId: 'read-only' });
      await acp.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: 'mock-model',
      });

      // Cancelled while the model holds its answer.
      const asked = s.model.chatRequests.length;
      const slow = acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'take your time' }],
      });
      await waitFor(() => s.model.chatRequests.length > asked);
      await acp.agent.notify('session/cancel', { sessionId });
      expect((await slow).stopReason).toBe('cancelled');
      release();

      // Error answers: an unknown session, params Keel refuses, params the schema refuses, an unknown extension.
      await expect(
        acp.agent.request('session/prompt', {
          sessionId: 'ses_nope',
          prompt: [{ type: 'text', text: 'hi' }],
        }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(
        acp.agent.request('session/set_mode', { sessionId, modeId: 'yolo' }),
      ).rejects.toMatchObject({
        code: -32602,
      });
      await expect(acp.agent.request('session/new', { mcpServers: [] } as never)).rejects.toMatchObject({
        code: -32602,
      });
      await expect(acp.agent.request('_keel/nothing_here', {})).rejects.toMatchObject({ code: -32601 });

      expect(schemaViolations(acp.wire)).toEqual([]);
      const reports = conformanceOf(acp.wire);
      // The check saw the whole protocol: every method, and the updates a prompt turn sends.
      expect(new Set(reports.map(({ method }) => method))).toEqual(
        new Set([
          'initialize',
          'session/new',
          'session/prompt',
          'session/update',
          'session/request_permission',
          'fs/read_text_file',
          'fs/write_text_file',
          'session/set_mode',
          'session/set_config_option',
          'session/cancel',
          '_keel/nothing_here',
        ]),
      );
      const kinds = new Set(acp.updates.map(({ update }) => update.sessionUpdate));
      for (const kind of [
        'plan',
        'tool_call',
        'tool_call_update',
        'agent_message_chunk',
        'agent_thought_chunk',
      ]) {
        expect(kinds).toContain(kind);
      }
      // The request the schema refuses was refused by Keel too, as invalid params.
      expect(
        reports.filter(({ refused }) => refused).map(({ label, refused }) => [label, refused?.code]),
      ).toEqual([[expect.stringContaining('session/new'), -32602]]);
      expect(reports.every(({ method, stable }) => method?.startsWith('_') || stable !== false)).toBe(true);
    } finally {
      release();
      await acp.stop();
    }

    // Loaded in a second process: the replay is checked as well.
    const again = startAcp(s.env, []);
    try {
      await again.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      await again.agent.request('session/load', { sessionId, cwd: s.repo.path, mcpServers: [] });
      const replayed = new Set(again.updates.map(({ update }) => update.sessionUpdate));
      for (const kind of ['user_message_chunk', 'plan', 'tool_call', 'tool_call_update']) {
        expect(replayed).toContain(kind);
      }
      await again.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'after the restart' }],
      });
      expect(schemaViolations(again.wire)).toEqual([]);
    } finally {
      await again.stop();
    }
  });

  test('stop() fails the test when a message on the wire breaks the schema', {
    timeout: 60_000,
  }, async () => {
    await using s = await scenario([]);
    const acp = startAcp(s.env, []);
    await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    // A notification nobody can refuse: the bad message stays on the wire.
    await acp.agent.notify('session/cancel', { sessionId: 42 } as never);
    await expect(acp.stop()).rejects.toThrow(
      /1 ACP schema violation\(s\) on the wire:\n#2 client→agent notification session\/cancel: params\/sessionId: must be string \(got 42\)/,
    );
  });
});
