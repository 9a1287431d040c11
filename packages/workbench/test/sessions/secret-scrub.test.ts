// The session runner scrubs the model key from everything a runner hands back, once for every runner:
// what the log keeps, what the row says and what a subscriber hears never holds the key.
import { describe, expect, test } from 'vitest';
import { type Body, connect, eventually, startWorkbench } from '../harness.ts';

/** The key the harness sets in the workbench's settings. */
const key = 'sk-test-secret';

describe('a session never shows the model key', () => {
  test('a reply and a model error that quote the key reach the log, the row and the socket scrubbed', {
    timeout: 60_000,
  }, async () => {
    await using wb = await startWorkbench([
      { when: { lastMessageIncludes: 'Which key' }, text: `You sent ${key} as your key.` },
      { when: { lastMessageIncludes: 'Fail now' }, error: { status: 400, message: `bad key ${key}` } },
    ]);
    const { api } = wb;
    const conversation = (await api('POST', '/api/conversations', { title: 'chat' })).body;
    const sessionId = (await api('POST', `/api/conversations/${conversation.id}/init`)).body.session.id;
    const client = await connect(wb.base);
    client.send({ type: 'subscribe', channel: `session:${sessionId}` });
    await client.next((m) => m.type === 'subscribed');

    const idle = async () => {
      const row = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
      return !row.busy && row.status !== 'running' ? row : undefined;
    };
    await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Which key did I send?' });
    const heard = await client.next((m) => {
      const event = m.event as Body | undefined;
      return m.type === 'event' && event?.type === 'message' && event.role === 'assistant';
    });
    expect((heard.event as Body).content).toBe('You sent [hidden] as your key.');
    await eventually(idle, 'the first turn done');

    await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Fail now' });
    const row = await eventually(async () => {
      const now = await idle();
      return now?.status === 'failed' ? now : undefined;
    }, 'the failed turn');
    expect(JSON.stringify(row)).toContain('[hidden]');

    const log = (await api('GET', `/api/sessions/${sessionId}/logs?limit=1000`)).body.entries as Body[];
    const text = JSON.stringify(log);
    expect(text).toContain('You sent [hidden] as your key.');
    expect(text).toContain('bad key [hidden]');
    expect(JSON.stringify({ log, row, heard })).not.toContain(key);
    client.socket.close();
  });
});
