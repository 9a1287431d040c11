// The off-loop worker: imports the module a call names and runs its function (see off-loop.ts).
import { parentPort } from 'node:worker_threads';
import { WorkbenchError } from '../errors.ts';
import type { OffLoopCall, OffLoopReply } from './off-loop.ts';

const port = parentPort;
if (!port) throw new Error('off-loop/worker runs only as a worker thread');

port.on('message', async (call: OffLoopCall) => {
  let reply: OffLoopReply;
  try {
    const module = (await import(call.url)) as Record<string, unknown>;
    const fn = module[call.name];
    if (typeof fn !== 'function') throw new Error(`${call.url} exports no function ${call.name}`);
    reply = { id: call.id, ok: true, value: await fn(...call.args) };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    reply = {
      id: call.id,
      ok: false,
      error: {
        ...(WorkbenchError.is(failure) ? { workbench: failure.toJSON() } : {}),
        message: failure.message,
        ...(failure.stack ? { stack: failure.stack } : {}),
      },
    };
  }
  try {
    port.postMessage(reply);
  } catch (error) {
    // An answer that cannot be cloned (a function, a class instance with private state) is a failure too.
    port.postMessage({ id: call.id, ok: false, error: { message: (error as Error).message } });
  }
});
