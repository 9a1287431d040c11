import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isBusy, retryWhileBusy } from '../../src/store/sqlite/database.ts';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'open-worker.ts');

function busyError(): Error {
  return Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
}

describe('opening the SQLite database', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-sqlite-open-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('processes creating one new database at once all open it', async () => {
    for (let round = 0; round < 3; round++) {
      const path = join(dir, `keel-${round}.db`);
      const outputs = await Promise.all(
        Array.from({ length: 5 }, () => run(process.execPath, [worker, path]).then((r) => r.stdout.trim())),
      );
      expect(outputs).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    }
  }, 60_000);

  test('a busy database is tried again; other errors and a spent deadline are not', () => {
    let calls = 0;
    expect(
      retryWhileBusy(() => {
        if (++calls < 3) throw busyError();
        return 'opened';
      }),
    ).toBe('opened');
    expect(calls).toBe(3);

    calls = 0;
    const notBusy = new Error('no such table: runs');
    expect(() =>
      retryWhileBusy(() => {
        calls++;
        throw notBusy;
      }),
    ).toThrow(notBusy);
    expect(calls).toBe(1);

    const started = Date.now();
    expect(() =>
      retryWhileBusy(() => {
        throw busyError();
      }, 100),
    ).toThrow('database is locked');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('busy and locked codes are recognised, extended codes included', () => {
    expect(isBusy(busyError())).toBe(true);
    expect(isBusy(Object.assign(new Error('x'), { errcode: 6 }))).toBe(true);
    expect(isBusy(Object.assign(new Error('x'), { errcode: 261 }))).toBe(true); // SQLITE_BUSY_RECOVERY
    expect(isBusy(Object.assign(new Error('x'), { errcode: 1 }))).toBe(false);
    expect(isBusy(new Error('disk I/O error'))).toBe(false);
  });
});
