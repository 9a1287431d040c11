import { describe, expect, test } from 'vitest';
import { type Body, connect, eventually, startWorkbench } from '../harness.ts';

const longAnswer =
  'The answer streams slowly, chunk by chunk, so a late subscriber joins while it runs. '.repeat(4);

async function conversationSession(wb: Awaited<ReturnType<typeof startWorkbench>>): Promise<string> {
  const conversation = (await wb.api('POST', '/api/conversations', { title: 'chat' })).body;
  const init = await wb.api('POST', `/api/conversations/${conversation.id}/init`);
  expect(init.status).toBe(201);
  expect(init.body.session).toMatchObject({ kind: 'conversation', status: 'queued' });
  return init.body.session.id;
}

describe('WS /api/ws', () => {
  test('a late subscriber with a cursor gets the replay, then the live tail, each event exactly once', async () => {
    await using wb = await startWorkbench([{ text: longAnswer, chunkDelayMs: 15 }]);
    const sessionId = await conversationSession(wb);
    const channel = `session:${sessionId}`;
    const early = await connect(wb.base);
    early.send({ type: 'ping' });
    await early.next((m) => m.type === 'pong');
    early.send({ type: 'subscribe', channel });
    await early.next((m) => m.type === 'subscribed');
    early.send({ type: 'chat', session_id: sessionId, content: 'Tell me slowly.' });
    // Join mid-stream, with a cursor a few events back.
    await eventually(() => early.messages.filter((m) => m.type === 'event').length >= 8, 'some events');
    const cursor = 3;
    const late = await connect(wb.base);
    late.send({ type: 'subscribe', channel, after: cursor });
    await late.next((m) => m.type === 'subscribed' && m.after === cursor);
    await early.next((m) => m.type === 'status' && (m.session as Body).status === 'succeeded');
    await late.next((m) => m.type === 'status' && (m.session as Body).status === 'succeeded');
    const earlySeqs = early.messages.filter((m) => m.type === 'event').map((m) => m.seq as number);
    const lateSeqs = late.messages.filter((m) => m.type === 'event').map((m) => m.seq as number);
    const last = (await wb.api('GET', `/api/sessions/${sessionId}/status`)).body.last_seq;
    expect(earlySeqs).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(lateSeqs).toEqual(Array.from({ length: last - cursor }, (_, i) => i + cursor + 1));
    // The late one joined while the turn ran (its snapshot said running), so its tail came live.
    expect((late.messages.find((m) => m.type === 'status') as Body).session.status).toBe('running');
    const lateText = late.messages
      .filter((m) => m.type === 'event' && (m.event as Body).type === 'text_delta')
      .map((m) => (m.event as Body).content)
      .join('');
    expect(lateText.length).toBeGreaterThan(0);
    const firstEvent = early.messages.find((m) => m.type === 'event');
    expect(firstEvent).toMatchObject({
      channel,
      seq: 1,
      event: { type: 'message', role: 'user', content: 'Tell me slowly.' },
    });
    expect(typeof firstEvent?.timestamp).toBe('string');
    early.socket.close();
    late.socket.close();
  });

  test('logs page from a cursor; chat resumes the same runner session', async () => {
    await using wb = await startWorkbench([
      { text: 'First.' },
      { when: { lastMessageIncludes: 'again' }, text: 'Second.' },
    ]);
    const sessionId = await conversationSession(wb);
    const client = await connect(wb.base);
    client.send({ type: 'chat', session_id: sessionId, content: 'hello' });
    await eventually(
      async () => (await wb.api('GET', `/api/sessions/${sessionId}/status`)).body.status === 'succeeded',
      'turn 1',
    );
    const first = (await wb.api('GET', `/api/sessions/${sessionId}/status`)).body;
    client.send({ type: 'chat', session_id: sessionId, content: 'say it again' });
    await eventually(async () => {
      const row = (await wb.api('GET', `/api/sessions/${sessionId}/status`)).body;
      return row.status === 'succeeded' && row.last_seq > first.last_seq && row;
    }, 'turn 2');
    const second = (await wb.api('GET', `/api/sessions/${sessionId}/status`)).body;
    expect(second.runner_session_id).toBe(first.runner_session_id);
    expect(
      wb.model.chatRequests[1]?.messages?.some((message) => JSON.stringify(message).includes('hello')),
    ).toBe(true);
    const page = (await wb.api('GET', `/api/sessions/${sessionId}/logs?after=0&limit=2`)).body;
    expect(page.entries.map((entry: Body) => entry.seq)).toEqual([1, 2]);
    expect(page).toMatchObject({ next_cursor: 2, has_more: true });
    const rest = (await wb.api('GET', `/api/sessions/${sessionId}/logs?after=${page.next_cursor}&limit=1000`))
      .body;
    expect(rest.entries[0].seq).toBe(3);
    expect(rest.next_cursor).toBe(second.last_seq);
    expect(rest.has_more).toBe(false);
    const users = [...page.entries, ...rest.entries].filter(
      (entry: Body) => entry.event.type === 'message' && entry.event.role === 'user',
    );
    expect(users.map((entry: Body) => entry.event.content)).toEqual(['hello', 'say it again']);
    client.socket.close();
  });

  test('bad messages and unknown sessions get error messages; the connection stays open', async () => {
    await using wb = await startWorkbench();
    const client = await connect(wb.base);
    client.send('not json');
    client.send({ type: 'subscribe', channel: 'nope' });
    client.send({ type: 'subscribe', channel: 'session:wses_missing' });
    client.send({ type: 'chat', session_id: 'wses_missing', content: 'hi' });
    client.send({ type: 'dance' });
    await eventually(() => client.messages.filter((m) => m.type === 'error').length === 5, 'five errors');
    expect(client.messages.map((m) => (m.error as Body).code)).toEqual([
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'SESSION_NOT_FOUND',
      'SESSION_NOT_FOUND',
      'INVALID_PARAMS',
    ]);
    // A refusal about a channel names it (a client carrying many channels on one connection routes it);
    // a message that could not be read names none.
    expect(client.messages.map((m) => m.channel)).toEqual([
      undefined,
      undefined,
      'session:wses_missing',
      'session:wses_missing',
      undefined,
    ]);
    client.send({ type: 'subscribe', channel: 'task:task_missing' });
    const refused = await client.next((m) => m.type === 'error' && m.channel === 'task:task_missing');
    expect((refused.error as Body).code).toBe('TASK_NOT_FOUND');
    client.send({ type: 'ping' });
    await client.next((m) => m.type === 'pong');
    client.socket.close();
  });

  test('with WORKBENCH_AUTH_API_KEY: bearer on REST, ?token on the socket (4001 without), health and docs open', async () => {
    await using wb = await startWorkbench([], { configure: false, env: { WORKBENCH_AUTH_API_KEY: 'k3y' } });
    expect((await wb.api('GET', '/api/settings')).status).toBe(401);
    expect((await wb.api('GET', '/api/settings')).body.error.code).toBe('AUTHENTICATION_FAILED');
    expect((await wb.api('GET', '/api/settings', undefined, { authorization: 'Bearer nope' })).status).toBe(
      401,
    );
    expect((await wb.api('GET', '/api/settings', undefined, { authorization: 'Bearer k3y' })).status).toBe(
      200,
    );
    expect((await wb.api('GET', '/health')).status).toBe(200);
    expect((await wb.api('GET', '/api/health')).status).toBe(200);
    expect((await wb.api('GET', '/docs/json')).status).toBe(200);
    const refused = await connect(wb.base);
    expect((await refused.closed).code).toBe(4001);
    const allowed = await connect(wb.base, '?token=k3y');
    allowed.send({ type: 'ping' });
    await allowed.next((m) => m.type === 'pong');
    allowed.socket.close();
  });
});
