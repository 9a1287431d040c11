import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createSqliteWorkbenchStore } from '../../src/store/index.ts';
import { startWorkbench, tempDir } from '../harness.ts';

// createWorkbench({ store }): the services use the store they are given (any WorkbenchStore dialect),
// never a database of their own, and the workbench closes it on close.
test('a workbench given a store keeps every record there, opens no workbench.db, and closes it', async () => {
  const store = createSqliteWorkbenchStore(join(tempDir('own-store'), 'elsewhere.db'));
  let home: string;
  {
    await using wb = await startWorkbench([], { workbench: { store } });
    home = wb.home;
    const created = await wb.api('POST', '/api/conversations', { title: 'kept elsewhere' });
    expect(created.status).toBe(201);
    expect((await store.settings.read()).model).toBe('mock-model');
    expect((await store.conversations.list()).map((each) => each.title)).toEqual(['kept elsewhere']);
    expect(existsSync(join(home, 'workbench.db'))).toBe(false);
  }
  expect(store.db.isOpen).toBe(false);
});
