import type { JsonObject } from '../contract.ts';
import type { SqliteContext } from './context.ts';
import { appendEvents, type EventToAppend } from './event-queries.ts';

interface Waiting extends EventToAppend {
  resolve(seq: number): void;
  reject(error: unknown): void;
}

/** How long a run counts as writing after its last append, when telling one writer from several. */
const writerWindowMs = 100;

/**
 * Group commit for `appendEvent`: appends wait in a queue and are written together in one transaction. A
 * commit is what an append costs (the write lock, the WAL frames), so one per batch instead of one per
 * event is what lets many runs stream at once. When is the queue written?
 * - while several runs are writing, once per turn of the event loop (`setImmediate`), so the appends made
 *   by all the I/O callbacks of a turn (each run's model stream) share one commit;
 * - while one run alone writes, at the end of the current task (a microtask): its appends made together
 *   still share a commit, and a lone stream does not wait for the rest of the event loop's work.
 * Order and durability are kept: each run's events get their sequence numbers in the order appendEvent was
 * called, and an append's promise settles only after its transaction committed, so the caller (and through
 * it any follower) never sees an event that is not stored. `flush()` writes the queue at once; the store
 * calls it before every other operation, so reads and writes see the appends made before them.
 */
export class SqliteEventAppender {
  readonly #ctx: SqliteContext;
  /** Told which runs got events, right after they are committed. */
  readonly #committed: (runIds: Iterable<string>) => void;
  /** What a failed append rejects with (a raw SQLite failure becomes a STORE_ERROR). */
  readonly #failure: (error: unknown) => unknown;
  #queue: Waiting[] = [];
  #scheduled = false;
  /** The runs that appended since `#windowStart`. */
  readonly #writers = new Set<string>();
  #windowStart = 0;

  constructor(
    ctx: SqliteContext,
    committed: (runIds: Iterable<string>) => void,
    failure: (error: unknown) => unknown,
  ) {
    this.#ctx = ctx;
    this.#committed = committed;
    this.#failure = failure;
  }

  append(runId: string, event: JsonObject & { type: string }): Promise<number> {
    // Serialised now, once: the caller may reuse the object, and nothing parses it again on the way in.
    const data = JSON.stringify(event);
    const now = performance.now();
    if (now - this.#windowStart > writerWindowMs) {
      this.#writers.clear();
      this.#windowStart = now;
    }
    this.#writers.add(runId);
    return new Promise((resolve, reject) => {
      this.#queue.push({ runId, type: event.type, data, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      const flush = () => {
        this.#scheduled = false;
        this.flush();
      };
      if (this.#writers.size > 1) setImmediate(flush);
      else queueMicrotask(flush);
    });
  }

  /** Writes every queued append in one transaction and settles their promises. Never throws. */
  flush(): void {
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    let results: ReturnType<typeof appendEvents>;
    try {
      results = appendEvents(this.#ctx, batch);
    } catch (error) {
      const failure = this.#failure(error);
      for (const waiting of batch) waiting.reject(failure);
      return;
    }
    const runIds = new Set<string>();
    batch.forEach((waiting, index) => {
      const result = results[index]!;
      if (typeof result === 'number') {
        runIds.add(waiting.runId);
        waiting.resolve(result);
      } else waiting.reject(result);
    });
    if (runIds.size > 0) this.#committed(runIds);
  }
}
