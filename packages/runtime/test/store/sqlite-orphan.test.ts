import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteRunStore } from '../../src/store/sqlite/index.ts';
import { describeOrphanContract } from './orphan-contract.ts';

describeOrphanContract('SqliteRunStore orphans (two connections on one file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'keel-sqlite-orphan-'));
  const path = join(dir, 'keel.db');
  return {
    store: openSqliteRunStore(path),
    reopen: async () => openSqliteRunStore(path),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
