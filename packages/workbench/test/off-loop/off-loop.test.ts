// Issue #44: `offLoop` runs a function in the workbench's worker thread. It must really run there (another
// thread, so the caller's event loop is free however long it takes), answer what the function answers, and
// fail as the function fails (a WorkbenchError keeps its code, status and details).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { WorkbenchError } from '../../src/errors.ts';
import { closeOffLoop } from '../../src/off-loop/index.ts';
import { fail, nested, spin, where } from './jobs.ts';

describe('offLoop', () => {
  test('runs the function on another thread, with its arguments and its answer cloned across', async () => {
    const answer = await where({ paths: ['a', 'b'], at: new Date(0), nothing: undefined });
    expect(answer.threadId).not.toBe(threadId);
    expect(answer.value).toEqual({ paths: ['a', 'b'], at: new Date(0), nothing: undefined });
    // The same worker for every call, and a call from inside it runs there directly.
    expect((await where(1)).threadId).toBe(answer.threadId);
    expect(await nested()).toEqual({ outer: answer.threadId, inner: answer.threadId });
  });

  test('the calling thread stays free while the function holds its own for 400 ms', async () => {
    await where(null);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const ranOn = await spin(400);
    await new Promise((resolve) => setTimeout(resolve, 20));
    delay.disable();
    expect(ranOn).not.toBe(threadId);
    // On this thread the 400 ms would have been one hold; only a machine too busy to schedule it adds any.
    expect(delay.max / 1e6).toBeLessThan(250);
  });

  test('a WorkbenchError keeps its code, status and details; another error its message', async () => {
    const workbench = await fail(true).catch((error: unknown) => error);
    expect(WorkbenchError.is(workbench)).toBe(true);
    expect(workbench).toMatchObject({
      code: 'SCAN_FAILED',
      status: 422,
      message: 'cannot scan /nowhere',
      details: { path: '/nowhere' },
    });
    const plain = await fail(false).catch((error: unknown) => error);
    expect(plain).toBeInstanceOf(Error);
    expect((plain as Error).message).toBe('plain failure');
  });

  test('arguments that cannot cross fail the call, and the next call works', async () => {
    const error = await where(() => 1).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect((await where(2)).value).toBe(2);
  });

  test('after the worker was stopped, the next call starts another', async () => {
    const first = (await where(null)).threadId;
    await closeOffLoop();
    const second = (await where(null)).threadId;
    expect(second).not.toBe(first);
    expect(second).not.toBe(threadId);
  });
});
