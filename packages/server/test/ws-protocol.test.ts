import { chatServerMessage, wsClientMessage, wsServerMessage } from '@keel/protocol/runtime';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { startServer } from './harness.ts';

type Message = { type: string; [key: string]: unknown };

/** A WebSocket on `path` that keeps every message the server sends. */
async function connect(base: string, path: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`);
  const messages: Message[] = [];
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
  await new Promise<void>((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
  return {
    socket,
    messages,
    send: (message: z.input<typeof wsClientMessage> | Record<string, unknown>) =>
      socket.send(JSON.stringify(message)),
    next: (match: (message: Message) => boolean) =>
      eventually(() => messages.find(match), {
        timeoutMs: 10_000,
        intervalMs: 20,
        what: () => `a matching message; got ${JSON.stringify(messages)}`,
      }),
  };
}

/** Every message parses against `schema` and comes out as it went in: no field the protocol does not name. */
function expectAllParse(schema: z.ZodType, messages: Message[]): void {
  for (const message of messages) expect(schema.parse(message), message.type).toEqual(message);
}

describe("the WebSockets speak @keel/protocol/runtime's messages", () => {
  test('WS /ws: a run with an approval, a refusal and a ping, every message as WsServerMessage', async () => {
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
        { when: { lastRole: 'tool' }, text: 'Written.' },
      ],
      { config: { security: { require_approval: ['write_file'] } } },
    );
    const client = await connect(s.base, '/ws');
    client.send({ type: 'user_input', content: 'too early' });
    await client.next((m) => m.type === 'error');
    client.send({ type: 'run', data: { prompt: 'write x' } });
    const request = await client.next((m) => m.type === 'interaction_request');
    client.send({ type: 'submit_interaction', request_id: String(request.request_id), action: 'approve' });
    await client.next((m) => m.type === 'done');
    client.send({ type: 'ping' });
    await client.next((m) => m.type === 'pong');
    client.socket.close();
    // A reconnect from the start of the session's run: `resuming`, then the run again.
    const start = await client.next((m) => m.type === 'start');
    const again = await connect(s.base, `/ws?session_id=${start.session_id}&after=0`);
    await again.next((m) => m.type === 'done');
    again.socket.close();
    expect(again.messages[0]).toMatchObject({ type: 'resuming', run_id: start.run_id });

    expectAllParse(wsServerMessage, [...client.messages, ...again.messages]);
    const types = client.messages.map((m) => m.type);
    expect(types).toEqual(
      expect.arrayContaining(['error', 'start', 'tool_call', 'tool_result', 'done', 'pong']),
    );
    // The refusal has no seq; every event of the run has one, in order from 1 (`start`).
    const seqs = client.messages.filter((m) => typeof m.seq === 'number').map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });

  test('WS /ws/chat/{project_id}: ready, a refusal and a turn, every message as WsChatServerMessage', async () => {
    await using s = await startServer([{ text: 'Hello from the chat.' }]);
    const project = (await s.api('POST', '/api/projects', { name: 'App', workdir: s.repo.path })).body;
    const chat = await connect(s.base, `/ws/chat/${project.id}`);
    await chat.next((m) => m.type === 'ready');
    chat.send({ type: 'run', data: { prompt: 'hello?', workdir: '/etc' } });
    await chat.next((m) => m.type === 'error');
    chat.send({ type: 'run', data: { prompt: 'hello?' } });
    await chat.next((m) => m.type === 'done');
    chat.socket.close();
    expectAllParse(chatServerMessage, chat.messages);
    // A message of the chat socket is not one of `/ws`.
    expect(wsServerMessage.safeParse(chat.messages[0]).success).toBe(false);
  });

  test('the client messages: submit_interaction answers by default; an unknown type is refused', () => {
    expect(wsClientMessage.parse({ type: 'submit_interaction', request_id: 'apr_1' })).toEqual({
      type: 'submit_interaction',
      request_id: 'apr_1',
      action: 'answer',
    });
    expect(wsClientMessage.safeParse({ type: 'teleport' }).success).toBe(false);
    expect(wsClientMessage.safeParse({ type: 'user_input', content: '' }).success).toBe(false);
  });
});
