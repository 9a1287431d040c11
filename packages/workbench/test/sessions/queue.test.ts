// Issue #23: a chat message sent while the session is busy is queued (not refused), listed, cancellable,
// and delivered as the session's next turn when the current work ends.
import { describe, expect, test } from 'vitest';
import { type Body, connect, eventually, startWorkbench } from '../harness.ts';

type Workbench = Awaited<ReturnType<typeof startWorkbench>>;

async function conversation(wb: Workbench): Promise<{ id: string; sessionId: string }> {
  const created = (await wb.api('POST', '/api/conversations', { title: 'chat' })).body;
  const init = await wb.api('POST', `/api/conversations/${created.id}/init`);
  return { id: created.id, sessionId: init.body.session.id };
}

/** Requests the model got whose messages mention `text`. */
function asked(wb: Workbench, text: string) {
  return wb.model.chatRequests.filter((request) => JSON.stringify(request.messages).includes(text));
}

async function userMessages(wb: Workbench, sessionId: string): Promise<string[]> {
  const entries = (await wb.api('GET', `/api/sessions/${sessionId}/logs?limit=1000`)).body.entries as Body[];
  return entries
    .filter((entry) => entry.event.type === 'message' && entry.event.role === 'user')
    .map((entry) => entry.event.content);
}

describe('messages sent while a session is busy are queued', () => {
  test('queued during a turn, listed, one cancelled; the other is the next turn and the model sees it', {
    timeout: 60_000,
  }, async () => {
    await using wb = await startWorkbench([
      { when: { lastMessageIncludes: 'First question' }, text: 'First answer.', delayMs: 2_000 },
      { when: { lastMessageIncludes: 'Second question' }, text: 'Second answer.' },
      { when: { lastMessageIncludes: 'Never delivered' }, text: 'Should not happen.' },
    ]);
    const { api } = wb;
    const { sessionId } = await conversation(wb);
    const client = await connect(wb.base);
    client.send({ type: 'subscribe', channel: `session:${sessionId}` });
    await client.next((m) => m.type === 'subscribed');
    client.send({ type: 'chat', session_id: sessionId, content: 'First question' });
    await eventually(() => asked(wb, 'First question').length === 1, 'the first turn running');
    expect((await api('GET', `/api/sessions/${sessionId}/status`)).body).toMatchObject({
      status: 'running',
      busy: true,
    });

    const second = await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Second question' });
    expect(second.status).toBe(202);
    expect(second.body).toEqual({
      session_id: sessionId,
      message_id: expect.any(String),
      queued: true,
      position: 1,
    });
    client.send({ type: 'chat', session_id: sessionId, content: 'Never delivered' });
    const never = await client.next((m) => m.type === 'queued');
    expect(never).toMatchObject({ session_id: sessionId, queued: true, position: 2 });
    await client.next((m) => m.type === 'queue' && (m.messages as Body[]).length === 2);

    const listed = (await api('GET', `/api/sessions/${sessionId}/queue`)).body;
    expect(listed).toEqual({
      session_id: sessionId,
      messages: [
        { id: second.body.message_id, content: 'Second question', queued_at: expect.any(String) },
        { id: never.message_id, content: 'Never delivered', queued_at: expect.any(String) },
      ],
    });
    const cancelled = await api('DELETE', `/api/sessions/${sessionId}/queue/${never.message_id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.messages.map((m: Body) => m.id)).toEqual([second.body.message_id]);
    const again = await api('DELETE', `/api/sessions/${sessionId}/queue/${never.message_id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('QUEUED_MESSAGE_NOT_FOUND');

    // The first turn ends, the queued message is the next turn; then the session is idle.
    await eventually(async () => {
      const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
      return row.status === 'succeeded' && !row.busy && asked(wb, 'Second question').length === 1;
    }, 'the queued turn done');
    expect(await userMessages(wb, sessionId)).toEqual(['First question', 'Second question']);
    // The model got the queued message after the first answer, in the same conversation.
    const request = JSON.stringify(asked(wb, 'Second question')[0]?.messages);
    expect(request.indexOf('First answer.')).toBeGreaterThan(-1);
    expect(request.indexOf('First answer.')).toBeLessThan(request.indexOf('Second question'));
    expect(asked(wb, 'Never delivered')).toHaveLength(0);
    expect((await api('GET', `/api/sessions/${sessionId}/queue`)).body.messages).toEqual([]);
    client.socket.close();
  });

  test('a stop ends the current turn (logged as stopped) and leaves the queue, which runs next', {
    timeout: 60_000,
  }, async () => {
    await using wb = await startWorkbench([
      { when: { lastMessageIncludes: 'Slow' }, text: 'never', delayMs: 60_000 },
      { when: { lastMessageIncludes: 'After the stop' }, text: 'Here I am.' },
    ]);
    const { api } = wb;
    const { sessionId } = await conversation(wb);
    const now = await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Slow' });
    expect(now.body).toMatchObject({ session_id: sessionId, queued: false });
    await eventually(() => asked(wb, 'Slow').length === 1, 'the slow turn running');
    const queued = await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'After the stop' });
    expect(queued.body).toMatchObject({ queued: true, position: 1 });

    const stopped = await api('POST', `/api/sessions/${sessionId}/stop`);
    expect(stopped.status).toBe(200);
    // Its turn is over, stopped; the session is already held for the queued message.
    expect(stopped.body).toMatchObject({
      status: 'cancelled',
      error: { code: 'CANCELLED', message: 'Stopped by the user.' },
      busy: true,
    });
    await eventually(async () => {
      const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
      return row.status === 'succeeded' && !row.busy;
    }, 'the queued turn done');
    expect(asked(wb, 'After the stop')).toHaveLength(1);
    const entries = (await api('GET', `/api/sessions/${sessionId}/logs?limit=1000`)).body.entries as Body[];
    const stop = entries.find((entry) => entry.event.type === 'error');
    expect(stop.event.error).toEqual({ code: 'CANCELLED', message: 'Stopped by the user.' });
    expect(await userMessages(wb, sessionId)).toEqual(['Slow', 'After the stop']);
  });

  test("deleting the session's owner drops its queue", { timeout: 60_000 }, async () => {
    await using wb = await startWorkbench([
      { when: { lastMessageIncludes: 'Slow' }, text: 'never', delayMs: 60_000 },
      { when: { lastMessageIncludes: 'Dropped' }, text: 'Should not happen.' },
    ]);
    const { api } = wb;
    const { id, sessionId } = await conversation(wb);
    await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Slow' });
    await eventually(() => asked(wb, 'Slow').length === 1, 'the slow turn running');
    expect(
      (await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Dropped' })).body,
    ).toMatchObject({ queued: true });
    expect((await api('DELETE', `/api/conversations/${id}`)).status).toBe(204);
    await eventually(async () => {
      const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
      return row.status === 'cancelled' && !row.busy && row;
    }, 'the turn stopped');
    const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
    expect(row.error.message).toContain('being deleted');
    expect((await api('GET', `/api/sessions/${sessionId}/queue`)).body.messages).toEqual([]);
    await wb.workbench.services.background.idle();
    expect(asked(wb, 'Dropped')).toHaveLength(0);
  });
});
