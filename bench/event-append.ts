// Event append throughput of each store: every append is its own transaction (next seq + insert), as in
// a live run; then fan-out (a subscriber woken per change) and a full replay of the run's events.
import { benchStores } from './stores.ts';

const count = Number(process.env.KEEL_BENCH_EVENTS ?? 5_000);

for (const { name, store, cleanup } of await benchStores()) {
  try {
    const run = await store.createRun({
      session_id: null,
      workdir: '/tmp',
      prompt: 'bench',
      workflow: null,
      input: {},
    });
    let wakeups = 0;
    const unsubscribe = store.subscribe(run.id, () => void wakeups++);
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      await store.appendEvent(run.id, {
        type: 'text_delta',
        content: `token ${i} `,
        session_id: 'ses_bench',
      });
    }
    const appendMs = performance.now() - started;
    unsubscribe();
    const replayStarted = performance.now();
    let replayed = 0;
    for (let after = 0; ; ) {
      const page = await store.listEvents(run.id, { after, limit: 1000 });
      if (page.length === 0) break;
      replayed += page.length;
      after = page.at(-1)!.seq;
    }
    const replayMs = performance.now() - replayStarted;
    console.log(
      JSON.stringify({
        bench: `event_append_${name}`,
        events: count,
        appends_per_s: Math.round(count / (appendMs / 1000)),
        us_per_append: Number(((appendMs * 1000) / count).toFixed(1)),
        subscriber_wakeups: wakeups,
        replay_events_per_s: Math.round(replayed / (replayMs / 1000)),
      }),
    );
  } finally {
    await cleanup();
  }
}
