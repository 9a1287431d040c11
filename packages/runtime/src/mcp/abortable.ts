import { CancelledError } from '../errors/index.ts';

/**
 * Waits for `work` unless `signal` aborts first, in which case it rejects with a CancelledError saying
 * `what` was cancelled. The work itself goes on: it may be shared with callers that still want it.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new CancelledError(`${what} was cancelled.`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError(`${what} was cancelled.`));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Runs `request` with a signal of its own that follows `outer` until the request settles. The SDK never
 * removes the abort listener it adds to a request's signal, so handing it a run's signal directly would
 * leave one listener per call on it (and a cancellation later would "cancel" long-finished requests).
 */
export async function withRequestSignal<T>(
  outer: AbortSignal,
  request: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const inner = new AbortController();
  const forward = () => inner.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  try {
    return await request(inner.signal);
  } finally {
    outer.removeEventListener('abort', forward);
  }
}
