import { CancelledError } from '../../errors/index.ts';

/** The bounds of one wait on a language server. */
export interface Bounds {
  /** After `ms` the wait fails with `error()`; without it, no time limit. */
  timeout?: { ms: number; error: () => Error } | undefined;
  /** The caller's cancellation: the wait fails with a CancelledError saying `what` was cancelled. */
  signal?: AbortSignal | undefined;
  what: string;
  /** Rejects when the server exits: the wait fails with that error. */
  stopped?: Promise<never> | undefined;
}

/**
 * Waits for `work` within `bounds`: a timeout, a cancellation and the server's exit each end the wait
 * with a clear error instead of leaving the caller hanging. `work` itself is not stopped.
 */
export function bounded<T>(work: Promise<T>, bounds: Bounds): Promise<T> {
  if (bounds.signal?.aborted) return Promise.reject(new CancelledError(`${bounds.what} was cancelled.`));
  let cleanup = () => {};
  const limits = new Promise<never>((_, reject) => {
    const { timeout } = bounds;
    const timer = timeout ? setTimeout(() => reject(timeout.error()), timeout.ms) : undefined;
    const cancelled = () => reject(new CancelledError(`${bounds.what} was cancelled.`));
    bounds.signal?.addEventListener('abort', cancelled, { once: true });
    cleanup = () => {
      clearTimeout(timer);
      bounds.signal?.removeEventListener('abort', cancelled);
    };
  });
  return Promise.race([work, limits, ...(bounds.stopped ? [bounds.stopped] : [])]).finally(cleanup);
}
