// A separate process opening the database: started by sqlite-open.test.ts so several processes create,
// convert and migrate one new file at once. Prints "ok", or the error message.
import { openSqliteRunStore } from '../../src/store/sqlite/index.ts';

try {
  const store = openSqliteRunStore(process.argv[2]!);
  await store.listRuns();
  await store.close();
  process.stdout.write('ok\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
}
