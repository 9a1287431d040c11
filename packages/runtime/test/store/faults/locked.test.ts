import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdDatabaseLock } from '@keel/testkit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SessionStore } from '../../../src/store/index.ts';
import { openSqlite } from '../../../src/store/sqlite/database.ts';
import { SqliteRunStore } from '../../../src/store/sqlite/sqlite-run-store.ts';
import { expectGapless, failureOf, integrityOf } from './fault-checks.ts';

// A second process holds the database's write lock (BEGIN EXCLUSIVE). The store's wait is shortened from
// its 5 s to 300 ms so the test stays fast; keel-web's test waits the real 5 s once.
describe('a database locked by another process', () => {
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-locked-'));
    path = join(dir, 'keel.db');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('the store waits the busy timeout (5 s as opened)', () => {
    const db = openSqlite(path);
    try {
      expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 5000 });
    } finally {
      db.close();
    }
  });

  test('writes wait, then fail with STORE_ERROR (locked, SQLITE_BUSY); reads go on; after the release writes work and nothing is damaged', async () => {
    const db = openSqlite(path);
    db.exec('PRAGMA busy_timeout = 300');
    const store = new SqliteRunStore(db);
    const sessions = new SessionStore(db);
    try {
      const session = sessions.create({ title: 'locked' });
      const run = await store.createRun({
        session_id: session.id,
        workdir: dir,
        prompt: 'p',
        workflow: null,
        input: {},
      });
      for (let i = 0; i < 3; i++) await store.appendEvent(run.id, { type: 'tick', i });

      const lock = await holdDatabaseLock(path);
      try {
        const writes: [string, () => unknown][] = [
          [
            'createRun',
            () =>
              store.createRun({
                session_id: session.id,
                workdir: dir,
                prompt: 'q',
                workflow: null,
                input: {},
              }),
          ],
          ['appendEvent', () => store.appendEvent(run.id, { type: 'tick', i: 99 })],
          ['transition', () => store.transition(run.id, { from: ['queued'], to: 'cancelled' })],
          ['sessions.append', () => sessions.append(session.id, { role: 'user', content: 'hi' })],
        ];
        for (const [name, write] of writes) {
          const started = Date.now();
          const error = await failureOf(write);
          const waited = Date.now() - started;
          expect(error.code, name).toBe('STORE_ERROR');
          expect(error.message, name).toMatch(/another process holds the database lock/);
          expect(error.details, name).toMatchObject({ reason: 'locked', code: 'SQLITE_BUSY', path });
          expect(waited, `${name} waited for the lock`).toBeGreaterThanOrEqual(250);
          expect(waited, `${name} gave up`).toBeLessThan(3000);
        }
        // Reads do not need the write lock (WAL).
        expect((await store.listEvents(run.id)).map((event) => event.seq)).toEqual([1, 2, 3]);
        expect(sessions.detail(session.id).messages).toEqual([]);
      } finally {
        await lock.release();
      }

      expect(await store.appendEvent(run.id, { type: 'tick', i: 3 })).toBe(4);
      await store.transition(run.id, { from: ['queued'], to: 'cancelled' });
      sessions.append(session.id, { role: 'user', content: 'hi' });
      expect(sessions.detail(session.id).messages).toHaveLength(1);
      expect(await store.listRuns()).toHaveLength(1);
      expectGapless((await store.listEvents(run.id)).map((event) => event.seq));
    } finally {
      await store.close();
      db.close();
    }
    expect(integrityOf(path)).toBe('ok');
  });
});
