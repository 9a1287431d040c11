import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';
import { openSqlite } from '../../src/store/sqlite/database.ts';
import { openSqliteRunStore, SqliteRunStore } from '../../src/store/sqlite/index.ts';
import { migrations } from '../../src/store/sqlite/migrations.ts';
import { describeStoreContract } from './contract-suite.ts';

// A short poll keeps the subscribe tests quick; the default (100 ms) is for real use.
const options = { pollMs: 20 };

describeStoreContract('SqliteRunStore (two connections on one file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'keel-sqlite-store-'));
  const path = join(dir, 'keel.db');
  return {
    store: openSqliteRunStore(path, options),
    reopen: async () => openSqliteRunStore(path, options),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('SqliteRunStore on SQLite', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-sqlite-store-'));
    path = join(dir, 'keel.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('two processes appending to one run at once get a gapless sequence', async () => {
    const store = openSqliteRunStore(path);
    try {
      const run = await store.createRun({
        session_id: null,
        workdir: dir,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      const perWriter = 1500;
      const writers = ['a', 'b'].map((name) => startWriter(path, run.id, name, perWriter));
      await Promise.all(writers.map((writer) => writer.ready));
      for (const writer of writers) writer.child.stdin.write('go\n');
      const returned = await Promise.all(writers.map((writer) => writer.done));

      const all = returned.flat().sort((a, b) => a - b);
      expect(all.length).toBeGreaterThanOrEqual(2 * perWriter);
      expect(all).toEqual(Array.from({ length: all.length }, (_, index) => index + 1));
      const records = [];
      for (let after = 0; ; ) {
        const page = await store.listEvents(run.id, { after });
        if (page.length === 0) break;
        records.push(...page);
        after = page.at(-1)!.seq;
      }
      expect(records.map((record) => record.seq)).toEqual(all);
      for (const [index, name] of ['a', 'b'].entries()) {
        const mine = records.filter((record) => record.event.writer === name);
        expect(mine.map((record) => record.seq)).toEqual(returned[index]);
      }
      // Proof the writers really overlapped rather than running one after the other.
      const firstOfB = returned[1]![0]!;
      const lastOfA = returned[0]!.at(-1)!;
      const firstOfA = returned[0]![0]!;
      const lastOfB = returned[1]!.at(-1)!;
      expect(firstOfB < lastOfA && firstOfA < lastOfB).toBe(true);
    } finally {
      await store.close();
    }
  }, 60_000);

  test('a database from the previous schema migrates, and its runs read as contract runs', async () => {
    // The schema as the previous release left it: the first two migrations.
    const old = new DatabaseSync(path);
    old.exec(migrations.slice(0, 2).join(';\n'));
    old.exec('PRAGMA user_version = 2');
    old
      .prepare(
        `INSERT INTO runs (id, status, session_id, workdir, prompt, error, last_seq, created_at, updated_at, ended_at)
         VALUES ('run_old', 'failed', 'ses_old', '/w', 'old prompt', ?, 0, ?, ?, ?)`,
      )
      .run(
        JSON.stringify({ code: 'MODEL_ERROR', message: 'gone' }),
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:05.000Z',
        '2026-01-01T00:00:05.000Z',
      );
    old.close();

    const store = openSqliteRunStore(path);
    try {
      expect(await store.getRun('run_old')).toEqual({
        id: 'run_old',
        status: 'failed',
        session_id: 'ses_old',
        workdir: '/w',
        prompt: 'old prompt',
        workflow: null,
        input: {},
        result: null,
        error: { code: 'MODEL_ERROR', message: 'gone' },
        last_seq: 0,
        attempt: 1,
        forked_from: null,
        lease_owner: null,
        lease_expires_at: null,
        usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
        cost_usd: 0,
        parent_run_id: null,
        agent: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:05.000Z',
        started_at: '2026-01-01T00:00:00.000Z',
        ended_at: '2026-01-01T00:00:05.000Z',
      });
      const retried = await store.transition('run_old', {
        from: ['failed'],
        to: 'queued',
        nextAttempt: true,
      });
      expect(retried.attempt).toBe(2);
    } finally {
      await store.close();
    }
    const reopened = new DatabaseSync(path);
    const { user_version } = reopened.prepare('PRAGMA user_version').get() as { user_version: number };
    reopened.close();
    expect(user_version).toBe(migrations.length);
  });

  test('a store on a database it did not open shares it and leaves it open for its owner', async () => {
    const db = openSqlite(path);
    const first = new SqliteRunStore(db);
    const second = new SqliteRunStore(db);
    try {
      const run = await first.createRun({
        session_id: null,
        workdir: dir,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      expect(await second.appendEvent(run.id, { type: 'tick' })).toBe(1);
      expect(await first.appendEvent(run.id, { type: 'tick' })).toBe(2);
      await first.close();
      expect(db.isOpen).toBe(true);
      expect((await second.getRun(run.id)).last_seq).toBe(2);
    } finally {
      await second.close();
      db.close();
    }
  });

  test('kind is sqlite; close() closes a database it opened; a failure after it is STORE_ERROR', async () => {
    const store = openSqliteRunStore(path);
    expect(store.kind).toBe('sqlite');
    const run = await store.createRun({
      session_id: null,
      workdir: dir,
      prompt: 'p',
      workflow: null,
      input: {},
    });
    await store.close();
    await store.close();
    const error = await store.getRun(run.id).catch((caught: unknown) => caught);
    expect(KeelError.is(error) && error.code).toBe('STORE_ERROR');
  });

  test('timestamps and lease expiry follow the injected clock', async () => {
    let now = new Date('2026-03-01T10:00:00.000Z');
    const store = openSqliteRunStore(path, { now: () => now });
    try {
      const run = await store.createRun({
        session_id: null,
        workdir: dir,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      expect(run.created_at).toBe('2026-03-01T10:00:00.000Z');
      const claimed = await store.claimRun(run.id, { owner: 'a', leaseMs: 5000 });
      expect(claimed?.lease_expires_at).toBe('2026-03-01T10:00:05.000Z');
      const recover = { owner: 'b', leaseMs: 5000, from: ['running' as const] };
      now = new Date('2026-03-01T10:00:05.000Z');
      // Exactly at expiry the lease still holds: claimable only when lease_expires_at < now.
      expect(await store.claimRun(run.id, recover)).toBeNull();
      now = new Date('2026-03-01T10:00:05.001Z');
      expect(await store.claimRun(run.id, recover)).toMatchObject({
        lease_owner: 'b',
        started_at: run.created_at,
      });
    } finally {
      await store.close();
    }
  });
});

interface Writer {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  done: Promise<number[]>;
}

function startWriter(path: string, runId: string, name: string, count: number): Writer {
  const script = new URL('./append-worker.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, path, runId, name, String(count)]);
  let output = '';
  let errors = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const done = new Promise<number[]>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready\n')) markReady();
      const match = /done (\[.*\])\n/.exec(output);
      if (match) resolve(JSON.parse(match[1]!) as number[]);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`writer ${name} exited with ${code}: ${errors}`));
    });
  });
  // A writer that dies before "ready" must fail the test rather than hang it.
  done.catch(() => markReady());
  return { child, ready, done };
}
