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
export function backoff(baseMs: number, attempt: number, signal: AbortSignal): Promise<void> {
  const ms = baseMs * 2 ** (attempt - 1);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new CancelledError());
      },
      { once: true },
    );
  });
}
