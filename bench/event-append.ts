// Event append throughput of the SQLite store: each append is its own transaction (seq + insert),
// as in a live run, then a full replay of the run's events.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, RunStore } from '@keel/runtime';

const count = 20_000;
const home = await mkdtemp(join(tmpdir(), 'keel-bench-events-'));
const db = openSqlite(join(home, 'keel.db'));
try {
  const runs = new RunStore(db);
  const run = runs.create({ session_id: null, workdir: home, prompt: 'bench' });
  const started = performance.now();
  for (let i = 0; i < count; i++)
    runs.append(run.id, { type: 'text_delta', content: `token ${i} `, session_id: 'ses_bench' });
  const appendMs = performance.now() - started;
  const replayStarted = performance.now();
  let replayed = 0;
  for (let after = 0; ; ) {
    const page = runs.events(run.id, { after, limit: 1000 });
    if (page.length === 0) break;
    replayed += page.length;
    after = page.at(-1)!.seq;
  }
  const replayMs = performance.now() - replayStarted;
  console.log(
    JSON.stringify({
      bench: 'event_append_sqlite',
      events: count,
      appends_per_s: Math.round(count / (appendMs / 1000)),
      us_per_append: Number(((appendMs * 1000) / count).toFixed(1)),
      replay_events_per_s: Math.round(replayed / (replayMs / 1000)),
    }),
  );
} finally {
  db.close();
  await rm(home, { recursive: true, force: true });
}
