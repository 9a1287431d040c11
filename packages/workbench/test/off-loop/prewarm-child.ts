// A process that starts the off-loop worker ahead of any call, says which thread it is, and has nothing more
// to do: it must exit by itself (prewarm.test.ts). Plain Node runs it, from the sources.
import { offLoopThreadId, prewarmOffLoop } from '../../src/off-loop/index.ts';
import './jobs.ts';

prewarmOffLoop();
process.stdout.write(`${offLoopThreadId()}\n`);
