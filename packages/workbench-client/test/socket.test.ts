import type { ErrorObject, LogEntry } from '@keel/protocol/workbench';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createWorkbenchClient, WorkbenchSocket } from '../src/index.ts';

/** A WebSocket double: records what the client sends; the test plays the server. */
class FakeSocket extends EventTarget {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  send(text: string) {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(code = 1000) {
    this.readyState = 3;
    const event = new Event('close') as Event & { code: number };
    event.code = code;
    this.dispatchEvent(event);
  }
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  receive(message: object | string) {
    const data = typeof message === 'string' ? message : JSON.stringify(message);
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

function event(seq: number) {
  return {
    type: 'event',
    channel: 'session:s1',
    seq,
    timestamp: '',
    event: { type: 'text_delta', content: `${seq}` },
  };
}

const snapshot = {
  id: 't1',
  state: 'CODING',
  review: null,
  merge_requests: null,
  error: null,
  updated_at: '2026-11-28T10:00:00.000Z',
};

const preview = {
  repository: 'app',
  command: 'npm run dev',
  port: 41234,
  url: 'http://127.0.0.1:41234',
  pid: 42,
  exit_code: null,
  signal: null,
  error: null,
  started_at: '2026-11-28T10:00:00.000Z',
  ended_at: null,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('WorkbenchSocket: one connection for many sessions', () => {
  test('subscribes from a cursor, drops duplicates, and resubscribes from the last seq after a drop', async () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const client = new WorkbenchSocket('ws://x/api/ws', {
      pingInterval: 1_000,
      create: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket as unknown as WebSocket;
      },
    });
    const seen: LogEntry[] = [];
    const stop = client.subscribe('s1', 2, { onEntry: (entry) => seen.push(entry) });
    sockets[0]?.open();
    expect(sockets[0]?.sent).toEqual([{ type: 'subscribe', channel: 'session:s1', after: 2 }]);

    for (const seq of [2, 3, 4, 4]) sockets[0]?.receive(event(seq));
    expect(seen.map((entry) => entry.seq)).toEqual([3, 4]);

    // Dropped: a new connection asks for what follows seq 4, and a replayed 4 is not shown again.
    sockets[0]?.close();
    await vi.advanceTimersByTimeAsync(300);
    sockets[1]?.open();
    expect(sockets[1]?.sent).toEqual([{ type: 'subscribe', channel: 'session:s1', after: 4 }]);
    for (const seq of [4, 5]) sockets[1]?.receive(event(seq));
    expect(seen.map((entry) => entry.seq)).toEqual([3, 4, 5]);

    // Pings; a missed pong closes and reconnects.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sockets[1]?.sent.at(-1)).toEqual({ type: 'ping' });
    sockets[1]?.receive({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sockets[1]?.readyState).toBe(3);
    await vi.advanceTimersByTimeAsync(300);
    expect(sockets).toHaveLength(3);

    stop();
    client.close();
  });

  test('a second listener behind the first gets its own replay; each sees every seq once', () => {
    const socket = new FakeSocket();
    const client = new WorkbenchSocket('ws://x/api/ws', { create: () => socket as unknown as WebSocket });
    const first: number[] = [];
    const second: number[] = [];
    client.subscribe('s1', 0, { onEntry: (entry) => first.push(entry.seq) });
    socket.open();
    for (const seq of [1, 2, 3]) socket.receive(event(seq));
    client.subscribe('s1', 1, { onEntry: (entry) => second.push(entry.seq) });
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'session:s1', after: 1 });
    for (const seq of [2, 3, 4]) socket.receive(event(seq));
    expect(first).toEqual([1, 2, 3, 4]);
    expect(second).toEqual([2, 3, 4]);
    client.close();
  });

  test("an error naming a channel reaches that channel's listeners and every error listener", () => {
    const socket = new FakeSocket();
    const client = new WorkbenchSocket('ws://x/api/ws', { create: () => socket as unknown as WebSocket });
    const mine: ErrorObject[] = [];
    const other: ErrorObject[] = [];
    const everyone: ErrorObject[] = [];
    client.subscribe('s1', 0, { onEntry: () => {}, onError: (error) => mine.push(error) });
    client.subscribe('s2', 0, { onEntry: () => {}, onError: (error) => other.push(error) });
    client.onError((error) => everyone.push(error));
    socket.open();
    const missing = { code: 'SESSION_NOT_FOUND', message: 'no session s1' };
    socket.receive({ type: 'error', channel: 'session:s1', error: missing });
    // A service older than the field names no channel: only the error listeners hear it.
    socket.receive({ type: 'error', error: { code: 'SESSION_BUSY', message: 'busy' } });
    expect(mine).toEqual([missing]);
    expect(other).toEqual([]);
    expect(everyone.map((error) => error.code)).toEqual(['SESSION_NOT_FOUND', 'SESSION_BUSY']);
    client.close();
  });

  test('a message the protocol does not describe is reported, not delivered', () => {
    const socket = new FakeSocket();
    const client = new WorkbenchSocket('ws://x/api/ws', { create: () => socket as unknown as WebSocket });
    const seen: number[] = [];
    const errors: ErrorObject[] = [];
    client.subscribe('s1', 0, { onEntry: (entry) => seen.push(entry.seq) });
    client.onError((error) => errors.push(error));
    socket.open();
    socket.receive({ ...event(1), seq: 'one' });
    socket.receive('not json');
    socket.receive(event(1));
    expect(seen).toEqual([1]);
    expect(errors.map((error) => error.code)).toEqual(['UNEXPECTED_MESSAGE', 'UNEXPECTED_MESSAGE']);
    expect(errors[0]?.message).toContain('seq');
    client.close();
  });

  test('a task channel: the task, its previews and their output reach its listeners; every (re)subscription says so', async () => {
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const client = new WorkbenchSocket('ws://x/api/ws', {
      create: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket as unknown as WebSocket;
      },
    });
    const heard: string[] = [];
    const stop = client.subscribeTask('t1', {
      onSubscribed: () => heard.push('subscribed'),
      onTask: (task) => heard.push(`task ${task.state}`),
      onPreview: (preview) => heard.push(`preview ${preview.repository} ${preview.state}`),
      onPreviewLog: (output) => heard.push(`log ${output.repository} ${output.seq} ${output.text}`),
      onError: (error) => heard.push(`error ${error.code}`),
    });
    // A session followed on the same connection: its acknowledgement is not the task listener's.
    client.subscribe('s1', 0, { onEntry: () => {} });
    sockets[0]?.open();
    // A task channel has no cursor: nothing of it is replayed.
    expect(sockets[0]?.sent).toEqual([
      { type: 'subscribe', channel: 'task:t1' },
      { type: 'subscribe', channel: 'session:s1', after: 0 },
    ]);
    const previewMessage = (channel: string, state: string) => ({
      type: 'preview',
      channel,
      preview: { ...preview, state },
    });
    for (const message of [
      { type: 'subscribed', channel: 'task:t1', after: 0 },
      { type: 'task', channel: 'task:t1', task: snapshot },
      previewMessage('task:t1', 'starting'),
      { type: 'preview_log', channel: 'task:t1', repository: 'app', seq: 1, text: 'listening\n' },
      previewMessage('task:t1', 'running'),
      // Another task's, and the session's acknowledgement: not this listener's.
      previewMessage('task:t2', 'running'),
      { type: 'preview_log', channel: 'task:t2', repository: 'app', seq: 1, text: 'other\n' },
      { type: 'subscribed', channel: 'session:s1', after: 0 },
      { type: 'error', channel: 'task:t1', error: { code: 'TASK_NOT_FOUND', message: 'gone' } },
    ]) {
      sockets[0]?.receive(message);
    }
    expect(heard).toEqual([
      'subscribed',
      'task CODING',
      'preview app starting',
      'log app 1 listening\n',
      'preview app running',
      'error TASK_NOT_FOUND',
    ]);

    // Dropped: the new connection subscribes the task again, and the listener hears that it must read anew.
    heard.length = 0;
    sockets[0]?.close();
    await vi.advanceTimersByTimeAsync(300);
    sockets[1]?.open();
    expect(sockets[1]?.sent).toContainEqual({ type: 'subscribe', channel: 'task:t1' });
    sockets[1]?.receive({ type: 'subscribed', channel: 'task:t1', after: 0 });
    expect(heard).toEqual(['subscribed']);

    // A second listener subscribes again, so it gets the task as it is now; the last one to go unsubscribes.
    const second: string[] = [];
    const stopSecond = client.subscribeTask('t1', { onTask: (task) => second.push(task.state) });
    expect(sockets[1]?.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'task:t1' });
    sockets[1]?.receive({ type: 'task', channel: 'task:t1', task: snapshot });
    expect(second).toEqual(['CODING']);
    stop();
    expect(sockets[1]?.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'task:t1' });
    stopSecond();
    expect(sockets[1]?.sent.at(-1)).toEqual({ type: 'unsubscribe', channel: 'task:t1' });
    client.close();
  });

  test("the client's socket reads the key at every connect and reports a refused one", async () => {
    vi.useFakeTimers();
    const urls: string[] = [];
    const sockets: FakeSocket[] = [];
    let key: string | null = null;
    let refused = 0;
    const wb = createWorkbenchClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: () => key,
      onUnauthorized: () => {
        refused += 1;
      },
      webSocket: (url) => {
        urls.push(url);
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket as unknown as WebSocket;
      },
    });
    const socket = wb.socket();
    const stop = socket.subscribe('s1', 0, { onEntry: () => {} });
    sockets[0]?.close(4001);
    expect(refused).toBe(1);
    key = 'k3y';
    await vi.advanceTimersByTimeAsync(300);
    expect(urls).toEqual(['ws://127.0.0.1:9/api/ws', 'ws://127.0.0.1:9/api/ws?token=k3y']);
    stop();
    socket.close();
  });
});
