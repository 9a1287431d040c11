// Long runs replayed over SSE and the WebSocket: events go out a page at a time as stored, so these runs
// are longer than a page (1000 events) and cursors fall on and around page boundaries. Every event must
// arrive exactly once, in order, with its own content, while more are being written too.
import { join } from 'node:path';
import { openSqliteRunStore } from '@keel/runtime';
import type { SqliteRunStore } from '@keel/runtime/store';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

type Message = { type: string; seq?: number; i?: number; [key: string]: unknown };

/** Reads an SSE response to its end: each message's id and parsed data. */
async function readSse(response: Response): Promise<{ id: number; event: Message }[]> {
  const messages: { id: number; event: Message }[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const id = block.match(/^id: (\d+)$/m)?.[1];
      const data = block.match(/^data: (.*)$/m)?.[1];
      if (id && data) messages.push({ id: Number(id), event: JSON.parse(data) });
    }
  }
  return messages;
}

/** Appends `count` tick events numbered from `from`, all in flight at once (one group commit). */
function append(store: SqliteRunStore, runId: string, from: number, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      store.appendEvent(runId, { type: 'tick', i: from + i, note: `line\nbreak "${from + i}"` }),
    ),
  );
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('replaying long runs a page at a time', () => {
  test('SSE replays every event once from any cursor, and follows one being written', async () => {
    await using s = await startServer([]);
    const store = openSqliteRunStore(join(s.home, 'keel.db'));
    try {
      const done = await store.createRun({
        session_id: null,
        workdir: s.repo.path,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      await append(store, done.id, 1, 2345);
      await store.transition(done.id, { from: ['queued'], to: 'succeeded' });
      const all = await readSse(await fetch(`${s.base}/runtime/runs/${done.id}/events`));
      expect(all.map((message) => message.id)).toEqual(range(1, 2345));
      expect(all.map((message) => message.event.i)).toEqual(range(1, 2345));
      expect(all[1233]!.event).toEqual({ type: 'tick', i: 1234, note: 'line\nbreak "1234"' });
      for (const after of [999, 1000, 1001, 2000, 2344, 2345]) {
        const tail = await readSse(
          await fetch(`${s.base}/runtime/runs/${done.id}/events`, {
            headers: { 'last-event-id': String(after) },
          }),
        );
        expect(tail.map((message) => message.id)).toEqual(range(after + 1, 2345));
      }

      // Live: a follower of a run still being written gets the stored pages, then each new event once.
      const live = await store.createRun({
        session_id: null,
        workdir: s.repo.path,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      await append(store, live.id, 1, 1500);
      const following = fetch(`${s.base}/runtime/runs/${live.id}/events?after=10`).then(readSse);
      for (let burst = 0; burst < 12; burst++) await append(store, live.id, 1501 + burst * 100, 100);
      await store.transition(live.id, { from: ['queued'], to: 'cancelled' });
      expect((await following).map((message) => message.event.i)).toEqual(range(11, 2700));
    } finally {
      await store.close();
    }
  });

  test('a WebSocket reconnect replays from its cursor across pages, then gets live events once', async () => {
    await using s = await startServer([]);
    const store = openSqliteRunStore(join(s.home, 'keel.db'));
    try {
      const run = await store.createRun({
        session_id: 'ses_replay',
        workdir: s.repo.path,
        prompt: 'p',
        workflow: null,
        input: {},
        status: 'paused',
      });
      await store.appendEvent(run.id, { type: 'session_start', session_id: 'ses_replay' });
      await append(store, run.id, 2, 2099);
      const socket = new WebSocket(`${s.base.replace(/^http/, 'ws')}/ws?session_id=ses_replay&after=999`);
      const messages: Message[] = [];
      socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
      const ticks = () => messages.filter((message) => message.type === 'tick');
      await eventually(() => ticks().length === 1101, {
        timeoutMs: 15_000,
        what: 'the replay of events 1000..2100',
      });
      await append(store, run.id, 2101, 400);
      await eventually(() => ticks().length === 1501, {
        timeoutMs: 15_000,
        what: 'the live events 2101..2500',
      });
      socket.close();
      expect(messages[0]).toMatchObject({
        type: 'resuming',
        session_id: 'ses_replay',
        run_id: run.id,
        last_seq: 2100,
      });
      expect(ticks().map((message) => message.seq)).toEqual(range(1000, 2500));
      expect(ticks().map((message) => message.i)).toEqual(range(1000, 2500));
      expect(ticks()[0]).toEqual({ type: 'tick', i: 1000, note: 'line\nbreak "1000"', seq: 1000 });

      // From the very start: `session_start` is sent as `start`, with the run and its seq.
      const again = new WebSocket(`${s.base.replace(/^http/, 'ws')}/ws?session_id=ses_replay&after=1`);
      const fromStart: Message[] = [];
      again.addEventListener('message', (event) => fromStart.push(JSON.parse(String(event.data))));
      await eventually(() => fromStart.length === 2500, { timeoutMs: 15_000, what: 'the replay from seq 2' });
      again.close();
      expect(fromStart.slice(1).map((message) => message.seq)).toEqual(range(2, 2500));
    } finally {
      await store.close();
    }
  });
});
