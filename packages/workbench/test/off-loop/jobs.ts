// Functions the off-loop tests run in the worker thread (a worker imports this file by its URL: no vitest
// here, nothing but what plain Node can load).
import { threadId } from 'node:worker_threads';
import { WorkbenchError } from '../../src/errors.ts';
import { offLoop } from '../../src/off-loop/index.ts';

/** The thread it ran on, and what it was given. */
export async function whereHere(value: unknown): Promise<{ threadId: number; value: unknown }> {
  return { threadId, value };
}
export const where = offLoop(import.meta.url, 'whereHere', whereHere);

/** Holds its thread for `ms` milliseconds, as a scan of a large repository would. */
export async function spinHere(ms: number): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < ms) {}
  return threadId;
}
export const spin = offLoop(import.meta.url, 'spinHere', spinHere);

/** Throws a WorkbenchError, or a plain Error. */
export async function failHere(workbench: boolean): Promise<never> {
  if (workbench) throw new WorkbenchError('SCAN_FAILED', 'cannot scan /nowhere', { path: '/nowhere' });
  throw new TypeError('plain failure');
}
export const fail = offLoop(import.meta.url, 'failHere', failHere);

/** Calls another off-loop function from the worker: it runs there directly, on the same thread. */
export async function nestedHere(): Promise<{ outer: number; inner: number }> {
  return { outer: threadId, inner: (await where(null)).threadId };
}
export const nested = offLoop(import.meta.url, 'nestedHere', nestedHere);
