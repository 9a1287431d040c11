// The web surface's streaming hot paths: replaying a stored run to SSE readers (log replay), and
// fanning a live run out to many SSE followers at once. A scripted model streams one long answer in
// small chunks; the figures are events per second delivered and the heap the server grew by.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@keel/server';
import { createTempGitRepo, startMockModel } from '@keel/testkit';

const chunks = Number(process.env.KEEL_BENCH_CHUNKS ?? 2_000);
const followers = Number(process.env.KEEL_BENCH_FOLLOWERS ?? 20);

/** Reads an SSE response to its end; returns the number of `data:` messages. */
async function drain(response: Response): Promise<number> {
  let count = 0;
  const decoder = new TextDecoder();
  let carry = '';
  for await (const chunk of response.body!) {
    const text = carry + decoder.decode(chunk, { stream: true });
    const messages = text.split('\n\n');
    carry = messages.pop() ?? '';
    for (const message of messages) if (message.includes('data: ')) count++;
  }
  return count;
}

const model = await startMockModel({
  script: [{ text: 'x'.repeat(chunks) }, { text: 'y'.repeat(chunks) }],
  chunkSize: 1,
});
const home = await mkdtemp(join(tmpdir(), 'keel-bench-web-'));
const repo = await createTempGitRepo({ files: {} });
const app = await createServer({
  runtime: { env: { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url } },
  workdir: repo.path,
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const post = (prompt: string) =>
  fetch(`${base}/runtime/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt, workdir: repo.path }),
  }).then((response) => response.json() as Promise<{ id: string }>);

try {
  // Live fan-out: followers connect as the run starts and read until it ends.
  const heapBefore = process.memoryUsage().heapUsed;
  const live = await post('stream a long answer');
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: followers }, () => fetch(`${base}/runtime/runs/${live.id}/events`).then(drain)),
  );
  const liveMs = performance.now() - started;
  const delivered = counts.reduce((sum, count) => sum + count, 0);
  console.log(
    JSON.stringify({
      bench: 'web_sse_fanout',
      followers,
      events_per_follower: counts[0],
      delivered_per_s: Math.round(delivered / (liveMs / 1000)),
      total_ms: Math.round(liveMs),
      heap_growth_mb: Number(((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)),
    }),
  );

  // Replay: the same finished run read again from the start, one reader at a time.
  const replayStarted = performance.now();
  let replayed = 0;
  for (let i = 0; i < 5; i++) replayed += await drain(await fetch(`${base}/runtime/runs/${live.id}/events`));
  const replayMs = performance.now() - replayStarted;
  console.log(
    JSON.stringify({
      bench: 'web_sse_replay',
      events: replayed / 5,
      events_per_s: Math.round(replayed / (replayMs / 1000)),
      ms_per_replay: Number((replayMs / 5).toFixed(1)),
    }),
  );
} finally {
  await app.close();
  await model.close();
  await repo.remove();
  await rm(home, { recursive: true, force: true });
}
