import { CancelledError } from '../errors/index.ts';
import { AsyncQueue } from './async-queue.ts';

/** Drives something to its end, handing over each event as it comes; stops when `signal` aborts. */
export type Follow<T> = (options: { signal: AbortSignal; onEvent: (event: T) => void }) => Promise<unknown>;

/**
 * The events `follow` hands over, as an async generator that ends when `follow` does (its error is not
 * rethrown: the last event says how it ended). The caller's `signal` stops it, and so does leaving the
 * loop early: a consumer that stopped reading must not leave a run going on unseen.
 */
export async function* eventStream<T>(follow: Follow<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  const queue = new AsyncQueue<T>();
  const finished = follow({ signal: controller.signal, onEvent: (event) => queue.push(event) })
    .catch(() => undefined)
    .finally(() => queue.end());
  try {
    yield* queue;
  } finally {
    signal?.removeEventListener('abort', forward);
    controller.abort(new CancelledError('The stream consumer stopped reading.'));
    await finished;
  }
}
