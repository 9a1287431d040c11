import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { eventually, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

type Message = { type: string; [key: string]: unknown };

/** A WebSocket client that collects what the server sends. */
async function connect(base: string, query = '') {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws${query}`);
  const messages: Message[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })),
  );
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => resolve(), { once: true });
    setTimeout(() => reject(new Error('no open')), 5000);
  });
  return {
    socket,
    messages,
    closed,
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    /** Waits for the first message that matches, from `from` on. */
    next(match: (message: Message) => boolean, from = 0): Promise<Message> {
      return eventually(() => messages.slice(from).find(match), {
        timeoutMs: 10_000,
        intervalMs: 20,
        what: () => `a matching message; got ${JSON.stringify(messages)}`,
      });
    },
  };
}

describe('WS /ws', () => {
  test('run streams start, the events and done; ping answers pong', async () => {
    await using s = await startServer([{ text: 'Hello over the socket.' }]);
    const client = await connect(s.base);
    client.send({ type: 'ping' });
    await client.next((m) => m.type === 'pong');
    client.send({ type: 'run', data: { prompt: 'say hello' } });
    const done = await client.next((m) => m.type === 'done');
    expect(done).toMatchObject({ output: 'Hello over the socket.' });
    const types = client.messages.map((m) => m.type).filter((type) => type !== 'pong');
    expect(types[0]).toBe('start');
    expect(client.messages.find((m) => m.type === 'start')).toMatchObject({
      session_id: expect.stringMatching(/^ses_/),
      run_id: expect.stringMatching(/^run_/),
    });
    expect(types).toContain('text_delta');
    client.socket.close();
  });

  test('user_input reaches the next turn; cancel stops the run', async () => {
    await using s = await startServer(
      [
        // Held inside this command until the test creates `go`: the message surely arrives mid-run.
        { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
        { when: { lastRole: 'user' }, text: 'word '.repeat(300), chunkDelayMs: 20 },
      ],
      { files: { 'a.txt': 'a' } },
    );
    const client = await connect(s.base);
    client.send({ type: 'run', data: { prompt: 'look' } });
    const start = await client.next((m) => m.type === 'start');
    await client.next((m) => m.type === 'tool_call');
    client.send({ type: 'user_input', content: 'then say words' });
    // The socket has no acknowledgement before injection: wait until the store holds the message.
    const sdk = createRuntime({ env: s.env, workdir: s.repo.path });
    try {
      const store = await sdk.store();
      await eventually(async () => (await store.pendingUserInputs(String(start.run_id))).length > 0, {
        timeoutMs: 10_000,
        intervalMs: 20,
        what: 'the message to be stored',
      });
    } finally {
      await sdk.close();
    }
    await writeFile(join(s.repo.path, 'go'), '');
    const received = await client.next((m) => m.type === 'user_input_received');
    expect(received).toMatchObject({ content: 'then say words' });
    await client.next((m) => m.type === 'text_delta' && String(m.content).includes('word'));
    client.send({ type: 'cancel' });
    await client.next((m) => m.type === 'cancelled');
    const runId = String(client.messages.find((m) => m.type === 'start')?.run_id);
    expect((await s.api('GET', `/runtime/runs/${runId}`)).body.status).toBe('cancelled');
    client.socket.close();
  });

  test('an interaction is answered with submit_interaction', async () => {
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
        { when: { lastRole: 'tool' }, text: 'Written.' },
      ],
      { config: { security: { require_approval: ['write_file'] } } },
    );
    const client = await connect(s.base);
    client.send({ type: 'run', data: { prompt: 'write x' } });
    const request = await client.next((m) => m.type === 'interaction_request');
    expect(request).toMatchObject({ kind: 'approval', options: ['approve', 'reject'] });
    client.send({ type: 'submit_interaction', request_id: request.request_id, action: 'approve' });
    expect(await client.next((m) => m.type === 'done')).toMatchObject({ output: 'Written.' });
    client.socket.close();
  });

  test('closing the socket leaves the run going; a reconnect with session_id gets resuming and the rest', async () => {
    await using s = await startServer([
      // Held inside this command until the test creates `go`: the run is surely still going on reconnect.
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'tool' }, text: 'tick '.repeat(80), chunkDelayMs: 5 },
    ]);
    const first = await connect(s.base);
    first.send({ type: 'run', data: { prompt: 'count' } });
    const start = await first.next((m) => m.type === 'start');
    const seen = await first.next((m) => m.type === 'tool_call');
    first.socket.close();
    await first.closed;

    const again = await connect(s.base, `?session_id=${start.session_id}&after=${seen.seq}`);
    const resuming = await again.next((m) => m.type === 'resuming');
    expect(resuming).toMatchObject({ session_id: start.session_id, run_id: start.run_id });
    await writeFile(join(s.repo.path, 'go'), '');
    const done = await again.next((m) => m.type === 'done');
    expect(done).toMatchObject({ output: 'tick '.repeat(80) });
    // From the cursor on: nothing missed, nothing twice.
    const seqs = again.messages.filter((m) => typeof m.seq === 'number').map((m) => m.seq as number);
    expect(seqs[0]).toBe((seen.seq as number) + 1);
    expect(seqs).toEqual(seqs.map((_, index) => seqs[0]! + index));
    again.socket.close();
  });

  test('bad messages get error messages and the socket stays open', async () => {
    await using s = await startServer([]);
    const client = await connect(s.base);
    client.send('not json');
    client.send({ type: 'teleport' });
    client.send({ type: 'run', data: {} });
    client.send({ type: 'cancel' });
    client.send({ type: 'submit_interaction', request_id: 'apr_nope', action: 'approve' });
    await client.next((m) => (m.error as { code?: string } | undefined)?.code === 'APPROVAL_NOT_FOUND');
    const errors = client.messages
      .filter((m) => m.type === 'error')
      .map((m) => (m.error as { code: string }).code);
    expect(errors.sort()).toEqual([
      'APPROVAL_NOT_FOUND',
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'INVALID_PARAMS',
      'INVALID_STATE',
    ]);
    client.send({ type: 'ping' });
    await client.next((m) => m.type === 'pong');
    const unknownSession = await connect(s.base, '?session_id=ses_nope');
    expect((await unknownSession.next((m) => m.type === 'error')).error).toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    client.socket.close();
    unknownSession.socket.close();
  });

  test('with an API key a connection needs the token, else it is closed with 4001', async () => {
    await using s = await startServer([], { apiKey: 'sekret' });
    const refused = await connect(s.base);
    expect((await refused.closed).code).toBe(4001);
    const wrong = await connect(s.base, '?token=nope');
    expect((await wrong.closed).code).toBe(4001);
    const allowed = await connect(s.base, '?token=sekret');
    allowed.send({ type: 'ping' });
    await allowed.next((m) => m.type === 'pong');
    allowed.socket.close();
  });
});
