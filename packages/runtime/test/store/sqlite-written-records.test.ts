import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openSqliteRunStore, type SqliteRunStore } from '../../src/store/sqlite/index.ts';

// Issue #44: a checkpoint's state and a finished run's result hold every tool output of a long run. The
// store handed back the record it wrote as a copy read out of SQLite and parsed: megabytes per copy, left
// in the old generation until the next full GC. What a write hands back is what it was given.

let dir: string;
let store: SqliteRunStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-written-records-'));
  store = openSqliteRunStore(join(dir, 'keel.db'));
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function runningRun() {
  const run = await store.createRun({
    session_id: null,
    workdir: '/work/project',
    prompt: 'read the files',
    workflow: { nodes: [{ id: 'agent', kind: 'agent' }], edges: [] },
    input: { prompt: 'read the files' },
  });
  return (await store.claimRun(run.id, { owner: 'worker-a', leaseMs: 60_000 }))!;
}

const outputs = Array.from({ length: 50 }, (_, index) => `content of file ${index}\n${'x'.repeat(2000)}`);

test('a checkpoint written is handed back with the state it was given, and read back equal', async () => {
  const run = await runningRun();
  const step = await store.startStep({ run_id: run.id, node_id: 'agent', kind: 'tool_batch' });
  const state = { traces: outputs.map((result) => ({ tool_name: 'read_file', result })) };
  const saved = await store.saveCheckpoint({ run_id: run.id, step_id: step.id, state, finishStep: true });
  expect(saved.state).toBe(state);
  expect(saved).toMatchObject({ run_id: run.id, step_id: step.id });
  expect(await store.getCheckpoint(saved.id)).toEqual(saved);
  const plain = await store.saveCheckpoint({ run_id: run.id, step_id: null, state: [1, 'two'] });
  expect(await store.listCheckpoints(run.id)).toEqual([saved, plain]);
});

test('a transition that sets the result hands it back as given; one that does not reads it', async () => {
  const run = await runningRun();
  const result = { output: 'Read them all.', tool_traces: outputs.map((each) => ({ result: each })) };
  const ended = await store.transition(run.id, {
    from: ['running'],
    to: 'succeeded',
    owner: 'worker-a',
    result,
  });
  expect(ended.result).toBe(result);
  expect(ended).toMatchObject({ status: 'succeeded', last_seq: 0, lease_owner: null });
  expect(await store.getRun(run.id)).toEqual(ended);
  // Without a result, the record carries the stored one (none here: a run that failed).
  const other = await runningRun();
  const failed = await store.transition(other.id, {
    from: ['running'],
    to: 'failed',
    owner: 'worker-a',
    error: { code: 'MODEL_ERROR', message: 'no' },
  });
  expect(failed).toMatchObject({ status: 'failed', result: null, error: { code: 'MODEL_ERROR' } });
  expect(await store.getRun(other.id)).toEqual(failed);
});
