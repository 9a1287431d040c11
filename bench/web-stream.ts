// The runs' streaming hot paths: replaying a stored 100,000-event run to a client over SSE, over the
// WebSocket and with `keel runs watch --json`, and fanning a live run out to many SSE followers at once.
// Reference in the same run: the same SSE bytes written raw over a loopback socket (the floor of any
// replay). Clients run in this process (the CLI in its own), so their reading is inside the figures.
//   replay of a 100,000-event run: target ≤ 1 s on each surface;
//   fan-out to 100 followers: no loss, figures printed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteRunStore } from '@keel/runtime';
import { createServer } from '@keel/server';
import { createTempGitRepo, startMockModel } from '@keel/testkit';
import { perSecond, report } from './report.ts';

const events = Number(process.env.KEEL_BENCH_EVENTS ?? 100_000);
const chunks = Number(process.env.KEEL_BENCH_CHUNKS ?? 2_000);
const followers = Number(process.env.KEEL_BENCH_FOLLOWERS ?? 100);
const keelBin = join(import.meta.dirname, '..', 'packages', 'cli', 'bin', 'keel.js');
const event = (i: number) => ({
  type: 'text_delta',
  content: `chunk ${i} of a streamed answer `,
  session_id: 'ses_bench',
});

/** Reads an SSE response to its end: how many messages, the last id, and whether ids ran 1, 2, 3… */
async function drain(
  response: Response,
  from = 1,
): Promise<{ count: number; last: number; ordered: boolean }> {
  let count = 0;
  let last = from - 1;
  let ordered = true;
  let carry = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    const messages = (carry + decoder.decode(chunk, { stream: true })).split('\n\n');
    carry = messages.pop() ?? '';
    for (const message of messages) {
      if (!message.startsWith('id: ')) continue;
      const id = Number(message.slice(4, message.indexOf('\n')));
      if (id !== last + 1) ordered = false;
      last = id;
      count++;
    }
  }
  return { count, last, ordered };
}

/** The floor: `bytes` written in 64 KiB writes over a loopback TCP socket and read by a client here. */
async function rawSocketMs(bytes: Buffer): Promise<number> {
  const server = createTcpServer((socket) => {
    let at = 0;
    const pump = () => {
      while (at < bytes.length) {
        const ok = socket.write(bytes.subarray(at, at + 65536));
        at += 65536;
        if (!ok) return void socket.once('drain', pump);
      }
      socket.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const client = connect(port, '127.0.0.1');
    client.on('data', () => {});
    client.on('end', resolve);
  });
  const ms = performance.now() - started;
  server.close();
  return ms;
}

/** Runs `keel …` (the built program) to the end; wall time and the lines it printed. */
function keel(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; lines: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [keelBin, ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  let lines = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) lines++;
  });
  return new Promise((resolve) =>
    child.on('close', () => resolve({ ms: performance.now() - started, lines })),
  );
}

const model = await startMockModel({
  script: [{ text: 'x'.repeat(chunks) }, { text: 'y'.repeat(chunks) }],
  chunkSize: 1,
});
const home = await mkdtemp(join(tmpdir(), 'keel-bench-web-'));
const repo = await createTempGitRepo({ files: {} });
const env = {
  ...process.env,
  RUNTIME_HOME: home,
  RUNTIME_MODEL: 'mock-model',
  RUNTIME_MODEL_BASE_URL: model.url,
};
const app = await createServer({ runtime: { env }, workdir: repo.path });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const store = openSqliteRunStore(join(home, 'keel.db'));

try {
  // A finished run of `events` events (SSE and CLI replay), and one paused in a session (WebSocket replay).
  const stored = await store.createRun({
    session_id: null,
    workdir: repo.path,
    prompt: 'p',
    workflow: null,
    input: {},
  });
  const paused = await store.createRun({
    session_id: 'ses_bench',
    workdir: repo.path,
    prompt: 'p',
    workflow: null,
    input: {},
    status: 'paused',
  });
  for (let from = 0; from < events; from += 10_000) {
    const count = Math.min(10_000, events - from);
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        Promise.all([
          store.appendEvent(stored.id, event(from + i)),
          store.appendEvent(paused.id, event(from + i)),
        ]),
      ),
    );
  }
  await store.transition(stored.id, { from: ['queued'], to: 'succeeded' });

  let sse = '';
  for (let i = 0; i < events; i++) sse += `id: ${i + 1}\ndata: ${JSON.stringify(event(i))}\n\n`;
  const rawMs = await rawSocketMs(Buffer.from(sse));
  const reference = { name: 'the same bytes written raw over a loopback socket (ms)', value: rawMs };

  let started = performance.now();
  const replay = await drain(await fetch(`${base}/runtime/runs/${stored.id}/events`));
  report({
    bench: 'web_replay',
    figure: `SSE replay of a ${events}-event run`,
    value: performance.now() - started,
    unit: 'ms',
    target: '≤ 1000 ms',
    reference,
    details: { events: replay.count, in_order_once: replay.ordered && replay.last === events },
  });

  started = performance.now();
  const ws = await new Promise<{ count: number; ordered: boolean }>((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?session_id=ses_bench&after=1`);
    let count = 0;
    let ordered = true;
    socket.onmessage = (message) => {
      const text = String(message.data);
      if (!text.startsWith('{"type":"text_delta"')) return;
      count++;
      const seq = Number(text.slice(text.lastIndexOf(':') + 1, -1));
      if (seq !== count + 1) ordered = false;
      if (seq === events) {
        socket.close();
        resolve({ count, ordered });
      }
    };
    socket.onerror = () => reject(new Error('WebSocket failed'));
  });
  report({
    bench: 'web_replay',
    figure: `WebSocket replay of a ${events}-event run (reconnect with after=1)`,
    value: performance.now() - started,
    unit: 'ms',
    target: '≤ 1000 ms',
    reference,
    details: { events: ws.count, in_order_once: ws.ordered && ws.count === events - 1 },
  });

  const version = await keel(['--version'], env);
  const watched = await keel(['runs', 'watch', stored.id, '--json', '-w', repo.path], env);
  report({
    bench: 'web_replay',
    figure: `keel runs watch --json of a ${events}-event run, process start to exit`,
    value: watched.ms,
    unit: 'ms',
    target: '≤ 1000 ms',
    reference,
    details: { lines: watched.lines, keel_version_ms: Math.round(version.ms) },
  });

  // Live fan-out: followers connect as the run starts and read until it ends.
  const heapBefore = process.memoryUsage().heapUsed;
  const live = (await (
    await fetch(`${base}/runtime/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'stream a long answer', workdir: repo.path }),
    })
  ).json()) as { id: string };
  started = performance.now();
  const results = await Promise.all(
    Array.from({ length: followers }, () =>
      fetch(`${base}/runtime/runs/${live.id}/events`).then((r) => drain(r)),
    ),
  );
  const liveMs = performance.now() - started;
  const lastSeq = ((await (await fetch(`${base}/runtime/runs/${live.id}`)).json()) as { last_seq: number })
    .last_seq;
  const delivered = results.reduce((sum, result) => sum + result.count, 0);
  report({
    bench: 'web_fanout',
    figure: `one live run fanned out to ${followers} SSE followers`,
    value: perSecond(delivered, liveMs),
    unit: 'events delivered/s',
    target: `${followers} followers, no loss`,
    details: {
      events_per_follower: lastSeq,
      lost: followers * lastSeq - delivered,
      all_in_order_once: results.every((result) => result.ordered && result.last === lastSeq),
      total_ms: Math.round(liveMs),
      heap_growth_mb: Number(((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)),
    },
  });
} finally {
  await store.close();
  await app.close();
  await model.close();
  await repo.remove();
  await rm(home, { recursive: true, force: true });
}
