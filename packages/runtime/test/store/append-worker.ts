// A separate process appending to one run: started by sqlite-store.test.ts to prove the sequence stays
// gapless when two processes write at once. Arguments: database path, run id, writer name, count.
// It prints "ready", waits for a line on stdin so every writer starts together, appends, prints "done".
// After its count it goes on until the other writer's events sit among its own (a gap in its seqs, or a
// first seq past 1): on a busy machine one process may otherwise finish before the other starts.
import { createInterface } from 'node:readline';
import { openSqliteRunStore } from '../../src/store/sqlite/index.ts';

const [path, runId, writer, count] = process.argv.slice(2);
const store = openSqliteRunStore(path!);
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const _line of lines) break;
const seqs: number[] = [];
const overlapped = () => seqs.length > 0 && seqs.at(-1)! > seqs.length;
for (let i = 0; i < Number(count) || (!overlapped() && i < 100 * Number(count)); i++)
  seqs.push(await store.appendEvent(runId!, { type: 'tick', writer: writer!, i }));
await store.close();
process.stdout.write(`done ${JSON.stringify(seqs)}\n`);
process.exit(0);
