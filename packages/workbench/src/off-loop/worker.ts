// The off-loop worker: imports the module a call names and runs its function (see off-loop.ts).
import { parentPort } from 'node:worker_threads';
import { WorkbenchError } from '../errors.ts';
import type { OffLoopCall, OffLoopReply, OffLoopWarm } from './off-loop.ts';

const port = parentPort;
if (!port) throw new Error('off-loop/worker runs only as a worker thread');

port.on('message', async (message: OffLoopCall | OffLoopWarm) => {
  if ('warm' in message) {
    await warm(message.warm);
    return;
  }
  const call = message;
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

/**
 * Imports the modules ahead of their first call, one after the other (a module a call needs meanwhile is
 * loaded once, for both). A module that fails to load fails its calls, not this.
 */
async function warm(urls: string[]): Promise<void> {
  for (const url of urls) await import(url).catch(() => undefined);
}
