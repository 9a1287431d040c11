// Started by read-only.test.ts as an unprivileged user (root writes any file whatever its mode): a
// workbench on a database file it may read but not write. Prints its URL, serves until stdin closes.
import { createWorkbench } from '../../src/index.ts';

const workbench = await createWorkbench({ home: process.argv[2]!, env: {} });
process.stdout.write(`${await workbench.listen(0)}\n`);
process.stdin.resume();
process.stdin.once('end', () => {
  void workbench.close().then(() => process.exit(0));
});
