// The workbench's session streaming hot paths: replaying a long session log to a client that subscribes
// from cursor 0 (over the WebSocket and over REST pages), and fanning one live session out to many
// WebSocket subscribers. Reference in the same run: reading and parsing the same JSONL file in process.
//   replay of a 100,000-event log: target ≤ 1 s; fan-out to 100 subscribers: no loss, figures printed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '@keel/workbench';

const events = Number(process.env.KEEL_BENCH_EVENTS ?? 100_000);
const subscribers = Number(process.env.KEEL_BENCH_SUBSCRIBERS ?? 100);
const liveEvents = Number(process.env.KEEL_BENCH_LIVE_EVENTS ?? 2_000);

const home = await mkdtemp(join(tmpdir(), 'keel-bench-workbench-'));
const workbench = await createWorkbench({ home, env: { ...process.env, WORKBENCH_HOME: home } });
const base = await workbench.listen(0);
const wsUrl = `${base.replace('http', 'ws')}/api/ws`;
const { runner } = workbench.services;

/** A WebSocket subscribed to a session from `after`; resolves when it has seen seq `until`. */
function subscribe(
  sessionId: string,
  after: number,
  until: number,
): Promise<{ received: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl);
    let received = 0;
    let started = 0;
    socket.onopen = () => {
      started = performance.now();
      socket.send(JSON.stringify({ type: 'subscribe', channel: `session:${sessionId}`, after }));
    };
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { type: string; seq?: number };
      if (data.type !== 'event') return;
      received++;
      if (data.seq === until) {
        socket.close();
        resolve({ received, ms: performance.now() - started });
      }
    };
    socket.onerror = () => reject(new Error('WebSocket failed'));
  });
}

try {
  const session = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
  const appendStarted = performance.now();
  for (let i = 0; i < events; i++) {
    runner.record(session.id, { type: 'text_delta', content: `chunk ${i} of a streamed answer ` });
  }
  await runner.recorded(session.id); // appends are queued and written in batches: wait for the file
  const appendMs = performance.now() - appendStarted;

  // The floor: the same file read and parsed in this process, no network.
  const parseStarted = performance.now();
  const lines = (await readFile(join(home, 'sessions', `${session.id}.jsonl`), 'utf8')).split('\n');
  const parsed = lines.filter(Boolean).map((line) => JSON.parse(line)).length;
  const parseMs = performance.now() - parseStarted;

  const ws = await subscribe(session.id, 0, events);

  const restStarted = performance.now();
  let cursor = 0;
  let restReceived = 0;
  for (;;) {
    const page = (await (
      await fetch(`${base}/api/sessions/${session.id}/logs?after=${cursor}&limit=1000`)
    ).json()) as {
      entries: unknown[];
      next_cursor: number;
      has_more: boolean;
    };
    restReceived += page.entries.length;
    cursor = page.next_cursor;
    if (!page.has_more) break;
  }
  const restMs = performance.now() - restStarted;

  console.log(
    JSON.stringify({
      bench: 'workbench-stream',
      figure: `replay of a ${events}-event session log`,
      append_per_s: Math.round(events / (appendMs / 1000)),
      websocket_ms: Math.round(ws.ms),
      websocket_received: ws.received,
      rest_pages_ms: Math.round(restMs),
      rest_received: restReceived,
      parse_in_process_ms: Math.round(parseMs),
      parsed,
      ratio_websocket_to_parse: +(ws.ms / parseMs).toFixed(2),
      target_ms: 1000,
    }),
  );

  // Live fan-out: every subscriber connects first, then the session appends.
  const live = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
  runner.record(live.id, { type: 'text_delta', content: 'start' });
  const waiting = Array.from({ length: subscribers }, () => subscribe(live.id, 1, liveEvents + 1));
  // Subscriptions are registered when their 'subscribed' answer is sent; give every socket time to open.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const fanStarted = performance.now();
  for (let i = 0; i < liveEvents; i++) runner.record(live.id, { type: 'text_delta', content: `live ${i}` });
  const results = await Promise.all(waiting);
  const fanMs = performance.now() - fanStarted;
  const delivered = results.reduce((sum, result) => sum + result.received, 0);
  console.log(
    JSON.stringify({
      bench: 'workbench-stream',
      figure: `fan-out of one session to ${subscribers} WebSocket subscribers`,
      events: liveEvents,
      delivered,
      lost: subscribers * liveEvents - delivered,
      events_delivered_per_s: Math.round(delivered / (fanMs / 1000)),
      ms: Math.round(fanMs),
    }),
  );
} finally {
  await workbench.close();
  await rm(home, { recursive: true, force: true });
}
