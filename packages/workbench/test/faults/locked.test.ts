import { join } from 'node:path';
import { lockedStoreError, writeWhileLocked } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { integrityOf } from '../../../runtime/test/store/faults/fault-checks.ts';
import { startWorkbench } from '../harness.ts';

describe('the workbench with its database locked by another process', () => {
  test('a write waits the busy timeout (5 s), then answers 500 STORE_ERROR (locked, SQLITE_BUSY); reads go on; released, it works', async () => {
    await using wb = await startWorkbench([]);
    const database = join(wb.home, 'workbench.db');
    const { answer, waitedMs } = await writeWhileLocked(
      database,
      () => wb.api('PUT', '/api/settings', { model: 'other-model' }),
      async () => {
        expect((await wb.api('GET', '/health')).status).toBe(200);
        expect((await wb.api('GET', '/api/settings')).body.model).toBe('mock-model');
      },
    );
    expect(waitedMs).toBeGreaterThanOrEqual(4500);
    expect([answer.status, answer.body.error]).toMatchObject([500, lockedStoreError]);
    expect(answer.body.error.message).toMatch(/another process holds the database lock/);
    expect((await wb.api('PUT', '/api/settings', { model: 'other-model' })).body.model).toBe('other-model');
    expect(integrityOf(database)).toBe('ok');
  }, 30_000);
});
