import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { lockedStoreError, mountSmallDisk, smallDiskUnavailable, writeWhileLocked } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { integrityOf, truncateWal } from '../../runtime/test/store/faults/fault-checks.ts';
import { startServer } from './harness.ts';

const cannotMount = smallDiskUnavailable();
const skipped = cannotMount ? ` (skipped: ${cannotMount})` : '';

/** Each stored run's event seqs, read from the file: they must be 1…n with no gap. */
function seqsByRun(path: string): number[][] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare('SELECT run_id, seq FROM run_events ORDER BY run_id, seq').all() as {
      run_id: string;
      seq: number;
    }[];
    const byRun = new Map<string, number[]>();
    for (const row of rows) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), row.seq]);
    return [...byRun.values()];
  } finally {
    db.close();
  }
}

const gapless = (seqs: number[]) => seqs.every((seq, index) => seq === index + 1);

describe.skipIf(cannotMount)(`keel-web on a full disk${skipped}`, () => {
  test('runs, tools and sessions answer 500 STORE_ERROR / TOOL_ERROR saying the disk is full; reads and /health go on; with space again all works', async () => {
    const disk = mountSmallDisk();
    try {
      const home = join(disk.path, 'home');
      const work = join(disk.path, 'work');
      mkdirSync(work, { recursive: true });
      writeFileSync(join(work, 'notes.md'), 'the original notes\n');
      await using s = await startServer(
        Array.from({ length: 6 }, (_, i) => ({ text: `answer ${i}` })),
        { env: { RUNTIME_HOME: home } },
      );
      const database = join(home, 'keel.db');
      const first = await s.api('POST', '/run', { prompt: 'first' });
      expect(first.status).toBe(200);
      const fillUp = () => {
        disk.free();
        truncateWal(database);
        disk.fill();
      };

      for (const [method, path, body] of [
        ['POST', '/runtime/runs', { prompt: 'second', workdir: s.repo.path }],
        ['POST', '/run', { prompt: 'second' }],
        ['POST', '/run/stream', { prompt: 'second' }],
        ['POST', '/sessions?title=full', undefined],
      ] as const) {
        fillUp();
        const answer = await s.api(method, path, body);
        expect(answer.status, path).toBe(500);
        expect(answer.body.error, path).toMatchObject({
          code: 'STORE_ERROR',
          message: expect.stringMatching(/the disk is full/),
          details: { reason: 'disk_full', code: 'SQLITE_FULL' },
        });
      }
      fillUp();
      const write = await s.api('POST', '/tool', {
        tool: 'write_file',
        params: { path: 'notes.md', content: 'new notes '.repeat(2000) },
        workdir: work,
      });
      expect(write.status).toBe(500);
      expect(write.body.error).toMatchObject({
        code: 'TOOL_ERROR',
        message: expect.stringMatching(/the disk is full \(ENOSPC\)/),
      });
      expect(readFileSync(join(work, 'notes.md'), 'utf8')).toBe('the original notes\n');

      // Still answering, reads included.
      expect((await s.api('GET', '/health')).status).toBe(200);
      const runs = await s.api('GET', '/runtime/runs');
      expect(runs.status).toBe(200);
      expect(runs.body.runs.map((run: { status: string }) => run.status)).toEqual(['succeeded']);
      expect((await s.api('GET', `/runtime/runs/${first.body.run_id}`)).body.status).toBe('succeeded');
      expect((await s.api('GET', '/sessions')).status).toBe(200);

      disk.free();
      const started = await s.api('POST', '/runtime/runs', { prompt: 'third', workdir: s.repo.path });
      expect(started.status).toBe(202);
      await s.until(started.body.id, (run) => run.status === 'succeeded');
      expect((await s.api('POST', '/run', { prompt: 'fourth' })).status).toBe(200);
      const written = await s.api('POST', '/tool', {
        tool: 'write_file',
        params: { path: 'notes.md', content: 'new notes\n' },
        workdir: work,
      });
      expect(written.status).toBe(200);
      expect(integrityOf(database)).toBe('ok');
      const seqs = seqsByRun(database);
      expect(seqs).toHaveLength(3);
      expect(seqs.every(gapless)).toBe(true);
    } finally {
      disk.remove();
    }
  });
});

describe.skipIf(cannotMount)(`keel-web with its database on a read-only file system${skipped}`, () => {
  test('/health answers; requests that need the database answer 500 STORE_ERROR (read_only, EROFS); writable again, they work', async () => {
    const disk = mountSmallDisk();
    try {
      const home = join(disk.path, 'home');
      mkdirSync(home);
      await using s = await startServer([{ text: 'hello' }], { env: { RUNTIME_HOME: home } });
      // The database is made by the first request; the server opens it per request until it can.
      expect((await s.api('GET', '/runtime/runs')).status).toBe(200);
      await s.app.close(); // closes the database: a file open for writing keeps a file system writable
      disk.readOnly();
      await using again = await startServer([{ text: 'hello' }], { env: { RUNTIME_HOME: home } });
      expect((await again.api('GET', '/health')).status).toBe(200);
      for (const [method, path, body] of [
        ['POST', '/runtime/runs', { prompt: 'hi', workdir: again.repo.path }],
        ['GET', '/runtime/runs', undefined],
      ] as const) {
        const answer = await again.api(method, path, body);
        expect(answer.status, path).toBe(500);
        expect(answer.body.error, path).toMatchObject({
          code: 'STORE_ERROR',
          message: expect.stringContaining('read-only'),
          details: { reason: 'read_only', code: 'EROFS', path: join(home, 'keel.db') },
        });
      }
      disk.writable();
      const started = await again.api('POST', '/runtime/runs', { prompt: 'hi', workdir: again.repo.path });
      expect(started.status).toBe(202);
      await again.until(started.body.id, (run) => run.status === 'succeeded');
      expect(integrityOf(join(home, 'keel.db'))).toBe('ok');
    } finally {
      disk.remove();
    }
  });
});

describe('keel-web with its database locked by another process', () => {
  test('a write waits the busy timeout (5 s), then answers 500 STORE_ERROR (locked, SQLITE_BUSY); released, it works', async () => {
    await using s = await startServer([{ text: 'one' }, { text: 'two' }]);
    const first = await s.api('POST', '/runtime/runs', { prompt: 'first', workdir: s.repo.path });
    await s.until(first.body.id, (run) => run.status === 'succeeded');
    const database = join(s.home, 'keel.db');

    const { answer, waitedMs } = await writeWhileLocked(
      database,
      () => s.api('POST', '/runtime/runs', { prompt: 'second', workdir: s.repo.path }),
      async () => {
        // Reads do not need the lock.
        expect((await s.api('GET', '/health')).status).toBe(200);
        expect((await s.api('GET', `/runtime/runs/${first.body.id}`)).body.status).toBe('succeeded');
      },
    );
    expect(waitedMs).toBeGreaterThanOrEqual(4500);
    expect([answer.status, answer.body.error]).toMatchObject([500, lockedStoreError]);
    expect(answer.body.error.message).toMatch(/another process holds the database lock/);
    const second = await s.api('POST', '/runtime/runs', { prompt: 'second', workdir: s.repo.path });
    expect(second.status).toBe(202);
    await s.until(second.body.id, (run) => run.status === 'succeeded');
    expect(integrityOf(database)).toBe('ok');
    expect(seqsByRun(database).every(gapless)).toBe(true);
  }, 30_000);
});
