import type { RunStore } from '../store/index.ts';

/**
 * Resolves when the run changes in the store (a new event or status, from any process), after `maxMs`
 * at the latest, or when `signal` aborts: how followers wait without busy polling.
 */
export function nextChange(
  store: RunStore,
  runId: string,
  signal?: AbortSignal,
  maxMs = 1000,
): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    const unsubscribe = store.subscribe(runId, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
