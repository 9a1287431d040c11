import { describe, expect, test } from 'vitest';
import { type Body, connect, eventually, startWorkbench } from '../harness.ts';

// A long log replayed over the WebSocket (issue #44): sent a page at a time, the event loop turning between
// pages, with what happens meanwhile following the replay in seq order.
const stored = 20_000;
const pageLines = 500; // src/sessions/paged-replay.ts

type Workbench = Awaited<ReturnType<typeof startWorkbench>>;

/** A conversation's session with `stored` events in its log, and a count of the log's page reads. */
async function longSession(wb: Workbench) {
  const conversation = (await wb.api('POST', '/api/conversations', { title: 'long' })).body;
  const sessionId: string = (await wb.api('POST', `/api/conversations/${conversation.id}/init`)).body.session
    .id;
  const { log, runner } = wb.workbench.services;
  for (let i = 1; i <= stored; i++) runner.record(sessionId, { type: 'text_delta', content: `stored ${i}` });
  // Observes the replay's reads of the log (each a page), passing them through unchanged.
  const reads = { count: 0 };
  const readLines = log.readLines.bind(log);
  log.readLines = (id, after, limit) => {
    if (id === sessionId) reads.count++;
    return readLines(id, after, limit);
  };
  return { sessionId, channel: `session:${sessionId}`, runner, reads };
}

/** Resolves after `turns` turns of the event loop. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('WS /api/ws: a long replay', () => {
  test('arrives whole and in order, the loop turns between pages, and live events follow it', async () => {
    await using wb = await startWorkbench();
    const { sessionId, channel, runner, reads } = await longSession(wb);
    const client = await connect(wb.base);
    // One live event per turn of the event loop while the replay runs, each noting how many pages the
    // replay had read by then.
    const live: { content: string; pagesRead: number }[] = [];
    let ticking = true;
    const tick = () => {
      if (!ticking) return;
      if (reads.count > 0) {
        const content = `live ${live.length + 1}`;
        live.push({ content, pagesRead: reads.count });
        runner.record(sessionId, { type: 'text_delta', content });
      }
      setImmediate(tick);
    };
    setImmediate(tick);
    client.send({ type: 'subscribe', channel });
    await client.next((m) => m.type === 'status', 30_000);
    ticking = false;
    const total = stored + live.length;
    await eventually(() => client.messages.some((m) => m.type === 'event' && m.seq === total), 'every event');

    // Live events were recorded between pages, while the replay was not yet done (a synchronous replay
    // reads the log once, so nothing can happen in its middle).
    expect(live.filter((event) => event.pagesRead < reads.count).length).toBeGreaterThan(0);
    expect(reads.count).toBe(stored / pageLines);
    const events = client.messages.filter((m) => m.type === 'event');
    // Every entry exactly once, in seq order: the stored ones, then the live ones in the order they came.
    expect(events.map((m) => m.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(events.map((m) => (m.event as Body).content)).toEqual([
      ...Array.from({ length: stored }, (_, i) => `stored ${i + 1}`),
      ...live.map((event) => event.content),
    ]);
    expect(events.every((m) => m.channel === channel)).toBe(true);
    expect(client.messages[0]).toMatchObject({ type: 'subscribed', channel, after: 0 });
    client.socket.close();
  });

  test('from a cursor, only what follows it; a socket closed mid-replay stops the replay', async () => {
    await using wb = await startWorkbench();
    const { channel, reads } = await longSession(wb);
    const from = await connect(wb.base);
    from.send({ type: 'subscribe', channel, after: stored - 3 });
    await from.next((m) => m.type === 'status');
    expect(from.messages.filter((m) => m.type === 'event').map((m) => m.seq)).toEqual([
      stored - 2,
      stored - 1,
      stored,
    ]);
    from.socket.close();

    reads.count = 0;
    const leaving = await connect(wb.base);
    leaving.socket.addEventListener('message', (event) => {
      if (String(event.data).includes('"type":"event"')) leaving.socket.close();
    });
    leaving.send({ type: 'subscribe', channel });
    await leaving.closed;
    const readAtClose = reads.count;
    // Given as many turns of the loop as the whole replay needs, it reads no further page.
    await turns(2 * (stored / pageLines));
    expect(reads.count).toBeLessThanOrEqual(readAtClose + 1);
    expect(reads.count).toBeLessThan(stored / pageLines);
  });
});
