import { setTimeout as wait } from 'node:timers/promises';
import { CancelledError, KeelError } from '../errors/index.ts';
import { SuspendRun } from './suspend.ts';

// When a failed node is tried again, and how long the scheduler waits first.

/** Whether a node may be tried again (or its fallback tried): not when the run itself is stopping. */
export function isRetryable(error: unknown, signal: AbortSignal): boolean {
  if (error instanceof SuspendRun || signal.aborted) return false;
  if (!KeelError.is(error)) return true;
  return !['CANCELLED', 'CIRCUIT_BREAKER', 'BUDGET_EXCEEDED'].includes(error.code);
}

/** Waits `baseMs` before the second attempt, doubling for each one after; cancelling the run ends the wait. */
export async function backoff(baseMs: number, attempt: number, signal: AbortSignal): Promise<void> {
  const ms = baseMs * 2 ** (attempt - 1);
  if (ms <= 0) return;
  // Node's abortable timer: it also lets go of the signal when the wait ends (no listener left behind).
  await wait(ms, undefined, { signal }).catch(() => {
    throw new CancelledError();
  });
}
