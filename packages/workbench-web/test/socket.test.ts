import { afterEach, describe, expect, test, vi } from 'vitest';
import { WorkbenchSocket } from '../src/api/socket.ts';
import type { LogEntry } from '../src/api/types.ts';

/** A WebSocket double: records what the client sends; the test plays the server. */
class FakeSocket extends EventTarget {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  send(text: string) {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
    this.dispatchEvent(new Event('close'));
  }
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  receive(message: object) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
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

afterEach(() => {
  vi.useRealTimers();
});

describe('WorkbenchSocket', () => {
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
});
