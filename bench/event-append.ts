// Event append throughput of each store, against raw node:sqlite insert loops on the same machine in the
// same run. Appends are measured three ways: one caller awaiting each append (a commit per event: latency
// bound), 100 runs appending at once (what a busy server does: the group commit writes them together), and
// one run with appends in flight. Then fan-out wake-ups and a paged replay of the run's events.
// The many-runs case is measured a few times (KEEL_BENCH_ROUNDS, default 3) and its median printed, beside
// the median of a raw loop of the same shape (a transaction per 100 rows, one row for each of 100 runs)
// into a table keyed like the store's events were before segments (the reference the target is held
// against), of that loop into a table without the (run_id, seq) index, which is what that shape pays for,
// and into the store's own shape: rows in append order, each run's found by segment (migrations.ts, 9).
//   target: ≥ 50,000 appends/s, every event stored before anyone sees it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@keel/runtime/store';
import { perSecond, report } from './report.ts';
import { benchStores } from './stores.ts';

const count = Number(process.env.KEEL_BENCH_EVENTS ?? 20_000);
const writers = Number(process.env.KEEL_BENCH_WRITERS ?? 100);
const rounds = Number(process.env.KEEL_BENCH_ROUNDS ?? 3);
const event = (i: number) => ({ type: 'text_delta', content: `token ${i} `, session_id: 'ses_bench' });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The reference: the same rows inserted with a prepared statement into a table shaped like run_events. */
async function rawInserts(): Promise<{
  autocommit: number;
  oneTransaction: number;
  manyRuns: number;
  manyRunsUnindexed: number;
  manyRunsSegments: number;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-bench-raw-'));
  const db = openSqlite(join(dir, 'raw.db'), [
    `CREATE TABLE events (id TEXT PRIMARY KEY, run_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
       data TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (run_id, seq))`,
    // The same without the index that finds a run's events: what that index costs the many-runs shape.
    `CREATE TABLE unindexed (id TEXT PRIMARY KEY, run_id TEXT NOT NULL, seq INTEGER NOT NULL,
       type TEXT NOT NULL, data TEXT NOT NULL, created_at TEXT NOT NULL)`,
    // The store's shape: a run's segment is the rowid of its first event, renewed every 4096 rows.
    `CREATE TABLE segmented (rid INTEGER PRIMARY KEY, seg INTEGER NOT NULL, seq INTEGER NOT NULL,
       id TEXT NOT NULL, run_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
       created_at TEXT NOT NULL);
     CREATE UNIQUE INDEX segmented_seq ON segmented (seg, seq)`,
  ]);
  try {
    const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)');
    const insertUnindexed = db.prepare('INSERT INTO unindexed VALUES (?, ?, ?, ?, ?, ?)');
    const insertSegmented = db.prepare('INSERT INTO segmented VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const segments = new Map<string, number>();
    let id = 0;
    const row = (runId: string, seq: number, i: number, statement = insert) => {
      if (statement === insertSegmented) {
        const rid = id + 1;
        if (rid - (segments.get(runId) ?? -Infinity) >= 4096) segments.set(runId, rid);
        return statement.run(
          rid,
          segments.get(runId)!,
          seq,
          `evt_${String(id++).padStart(26, '0')}`,
          runId,
          'text_delta',
          JSON.stringify(event(i)),
          new Date().toISOString(),
        );
      }
      return statement.run(
        `evt_${String(id++).padStart(26, '0')}`,
        runId,
        seq,
        'text_delta',
        JSON.stringify(event(i)),
        new Date().toISOString(),
      );
    };
    let started = performance.now();
    for (let i = 0; i < count; i++) row('run_autocommit', i + 1, i);
    const autocommit = perSecond(count, performance.now() - started);
    started = performance.now();
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < count; i++) row('run_one_transaction', i + 1, i);
    db.exec('COMMIT');
    const oneTransaction = perSecond(count, performance.now() - started);
    // The many-runs shape, with the store's checkpoint interval: what SQLite itself costs for it (each
    // commit writes a page of the (run_id, seq) index for every run), before any bookkeeping of ours.
    db.exec('PRAGMA wal_autocheckpoint = 4000');
    const runIds = Array.from({ length: writers }, (_, r) => `run_${String(r).padStart(26, '0')}`);
    const perRun = Math.ceil(count / writers);
    const manyRunsInto = (statement: typeof insert) => {
      const perSecondByRound: number[] = [];
      for (let round = 0; round < rounds; round++) {
        started = performance.now();
        for (let i = 0; i < perRun; i++) {
          db.exec('BEGIN IMMEDIATE');
          for (const runId of runIds) row(runId, round * perRun + i + 1, i, statement);
          db.exec('COMMIT');
        }
        perSecondByRound.push(perSecond(perRun * writers, performance.now() - started));
      }
      return median(perSecondByRound);
    };
    const manyRuns = manyRunsInto(insert);
    const manyRunsUnindexed = manyRunsInto(insertUnindexed);
    id = 0;
    const manyRunsSegments = manyRunsInto(insertSegmented);
    return { autocommit, oneTransaction, manyRuns, manyRunsUnindexed, manyRunsSegments };
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const raw = await rawInserts();
const autocommitRef = { name: 'raw node:sqlite insert loop, a commit per row', value: raw.autocommit };
const batchRef = { name: 'raw node:sqlite insert loop, one transaction', value: raw.oneTransaction };
report({
  bench: 'event_append_reference',
  figure: 'raw inserts, a commit per row',
  value: raw.autocommit,
  unit: 'rows/s',
});
report({
  bench: 'event_append_reference',
  figure: 'raw inserts, one transaction',
  value: raw.oneTransaction,
  unit: 'rows/s',
});
const manyRunsRef = {
  name: `raw node:sqlite insert loop, a transaction per ${writers} rows of ${writers} runs`,
  value: raw.manyRuns,
};
report({
  bench: 'event_append_reference',
  figure: `raw inserts, a transaction per ${writers} rows of ${writers} runs (median of ${rounds})`,
  value: raw.manyRuns,
  unit: 'rows/s',
});
// What stands in the way of that shape: every commit writes a page of the (run_id, seq) index per run.
report({
  bench: 'event_append_reference',
  figure: `the same, without the (run_id, seq) index (median of ${rounds})`,
  value: raw.manyRunsUnindexed,
  unit: 'rows/s',
  reference: manyRunsRef,
});
// The store's own shape: what it costs over the raw loop is its bookkeeping (promises, cursors, segments).
const segmentsRef = {
  name: `raw node:sqlite insert loop of the store's shape (segments), ${writers} rows of ${writers} runs`,
  value: raw.manyRunsSegments,
};
report({
  bench: 'event_append_reference',
  figure: `the same, into the store's shape: append order, runs found by segment (median of ${rounds})`,
  value: raw.manyRunsSegments,
  unit: 'rows/s',
  reference: manyRunsRef,
});

for (const { name, store, cleanup } of await benchStores()) {
  try {
    const newRun = () =>
      store.createRun({ session_id: null, workdir: '/tmp', prompt: 'bench', workflow: null, input: {} });

    // One caller awaiting each append: every event is its own commit.
    const sequential = await newRun();
    const serialCount = Math.min(count, 5_000);
    let started = performance.now();
    for (let i = 0; i < serialCount; i++) await store.appendEvent(sequential.id, event(i));
    report({
      bench: `event_append_${name}`,
      figure: 'one caller awaiting each append',
      value: perSecond(serialCount, performance.now() - started),
      unit: 'appends/s',
      reference: autocommitRef,
    });

    // Many runs at once, each awaiting its own appends: the server case.
    const perRun = Math.ceil(count / writers);
    const concurrent: number[] = [];
    let wakeups = 0;
    for (let round = 0; round < rounds; round++) {
      const runs = await Promise.all(Array.from({ length: writers }, newRun));
      const unsubscribe = store.subscribe(runs[0]!.id, () => void wakeups++);
      started = performance.now();
      await Promise.all(
        runs.map(async (run) => {
          for (let i = 0; i < perRun; i++) await store.appendEvent(run.id, event(i));
        }),
      );
      concurrent.push(perSecond(perRun * writers, performance.now() - started));
      unsubscribe();
    }
    report({
      bench: `event_append_${name}`,
      figure: `${writers} runs appending at once (median of ${rounds})`,
      value: median(concurrent),
      unit: 'appends/s',
      target: '≥ 50,000 appends/s',
      reference: manyRunsRef,
      details: {
        rounds: concurrent.map(Math.round),
        ratio_to_autocommit: Number((median(concurrent) / autocommitRef.value).toFixed(2)),
        ratio_to_one_transaction: Number((median(concurrent) / batchRef.value).toFixed(2)),
        ratio_to_raw_segments: Number((median(concurrent) / segmentsRef.value).toFixed(2)),
        // Commits seen by one run's subscriber: one per batch of appends.
        subscriber_wakeups: wakeups,
      },
    });

    // One run with its appends in flight at once.
    const pipelined = await newRun();
    started = performance.now();
    await Promise.all(Array.from({ length: count }, (_, i) => store.appendEvent(pipelined.id, event(i))));
    report({
      bench: `event_append_${name}`,
      figure: 'one run, appends in flight at once',
      value: perSecond(count, performance.now() - started),
      unit: 'appends/s',
      reference: batchRef,
    });

    // Paged replay of that run, as the surfaces read it.
    started = performance.now();
    let replayed = 0;
    for (let after = 0; ; ) {
      const page = store.listEventTexts
        ? await store.listEventTexts(pipelined.id, { after, limit: 1000 })
        : await store.listEvents(pipelined.id, { after, limit: 1000 });
      if (page.length === 0) break;
      replayed += page.length;
      after = page.at(-1)!.seq;
    }
    report({
      bench: `event_append_${name}`,
      figure: 'paged read of the run back, 1000 a page',
      value: perSecond(replayed, performance.now() - started),
      unit: 'events/s',
    });
  } finally {
    await cleanup();
  }
}
