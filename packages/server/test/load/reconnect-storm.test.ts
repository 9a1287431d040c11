import { eventually } from '@keel/testkit';
import { expect, test } from 'vitest';
import { startServer } from '../harness.ts';

type Message = { type: string; seq?: number; [key: string]: unknown };

/** A tiny seeded generator (mulberry32): the same storm on every machine. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * One follower of a session's run: connects from cursor 0, drops the socket after a random number of
 * events, reconnects with the last seq it saw, and so on until `done`. Answers every event seq it got.
 */
async function follow(base: string, sessionId: string, next: () => number): Promise<number[]> {
  const seen: number[] = [];
  let reconnects = 0;
  for (;;) {
    const after = seen.at(-1) ?? 0;
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?session_id=${sessionId}&after=${after}`);
    const dropAfter = 1 + Math.floor(next() * 40);
    const outcome = await new Promise<'done' | 'dropped'>((resolve, reject) => {
      let received = 0;
      socket.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as Message;
        if (message.type === 'error') reject(new Error(`after ${after}: ${JSON.stringify(message)}`));
        if (typeof message.seq !== 'number') return;
        seen.push(message.seq);
        if (message.type === 'done') return resolve('done');
        if (++received >= dropAfter) {
          socket.close();
          resolve('dropped');
        }
      });
      socket.addEventListener('error', () => reject(new Error('socket error')));
    });
    if (outcome === 'done') {
      socket.close();
      return seen;
    }
    if (++reconnects > 500) throw new Error('too many reconnects');
  }
}

test('100 WebSocket clients dropping and reconnecting with their cursors each get every event exactly once', {
  timeout: 120_000,
}, async () => {
  await using s = await startServer([{ text: 'tick '.repeat(300), chunkDelayMs: 10 }]);
  const started = await s.api('POST', '/runtime/runs', { prompt: 'count', workdir: s.repo.path });
  expect(started.status).toBe(202);
  const sessionId = started.body.session_id as string;

  const followers = Array.from({ length: 100 }, (_, index) => follow(s.base, sessionId, random(index + 1)));
  const received = await Promise.all(followers);

  const run = await s.until(started.body.id ?? started.body.run_id, (r) => r.status === 'succeeded');
  const all = Array.from({ length: run.last_seq }, (_, index) => index + 1);
  for (const seqs of received) expect(seqs).toEqual(all);
  expect(await eventually(async () => (await s.api('GET', '/health')).status === 200)).toBe(true);
});
