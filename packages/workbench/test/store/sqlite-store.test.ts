import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteWorkbenchStore } from '../../src/store/index.ts';
import { describeWorkbenchStoreContract } from './contract-suite.ts';

// The SQLite dialect against the WorkbenchStore contract, on a fresh database file per test.
describeWorkbenchStoreContract('the SQLite workbench store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wb-store-'));
  return {
    store: createSqliteWorkbenchStore(join(dir, 'workbench.db')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
