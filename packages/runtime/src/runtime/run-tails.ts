import type { Run, RunEventText, RunStore } from '../store/index.ts';

/** How long a follower waits for a change before looking again anyway (a lost notification costs this). */
const maxWaitMs = 1000;

/**
 * What the followers of one run in this process share: one subscription to the store, the wait for the
 * run's next change, and reads of its events and of the run itself. When a hundred followers are woken by
 * the same new event they would each run the same two queries; here the first asks the store and the
 * others get its answer. A read is shared only within one "generation", the count of changes the store has
 * reported for the run: a follower starts waiting before it reads, so a change made after a shared read
 * either bumps the generation before the follower asks (and it reads afresh) or ends its wait. None is
 * missed.
 */
class RunTail {
  generation = 0;
  followers = 0;
  readonly #reads = new Map<string, Promise<unknown>>();
  readonly #stop: () => void;
  #waiting: PromiseWithResolvers<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(store: RunStore, runId: string) {
    this.#stop = store.subscribe(runId, () => {
      this.generation++;
      this.#wake();
    });
  }

  /** Settles at the next change reported after this call (or after maxWaitMs at the latest). */
  next(): Promise<void> {
    if (!this.#waiting) {
      this.#waiting = Promise.withResolvers<void>();
      this.#timer ??= setInterval(() => this.#wake(), maxWaitMs).unref();
    }
    return this.#waiting.promise;
  }

  /** The answer of `read` for `key` in this generation: one read however many ask at once. */
  share<T>(key: string, read: () => Promise<T>): Promise<T> {
    const shared = `${this.generation}:${key}`;
    let pending = this.#reads.get(shared) as Promise<T> | undefined;
    if (!pending) {
      pending = read().finally(() => this.#reads.delete(shared));
      this.#reads.set(shared, pending);
    }
    return pending;
  }

  stop(): void {
    this.#stop();
    this.#wake();
    clearInterval(this.#timer);
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve();
  }
}

/** A follower's view of its run's tail. */
export interface RunFollower {
  /** Events after `after`; `fresh` skips sharing (the caller knows a shared answer is out of date). */
  events(after: number, limit: number, fresh?: boolean): Promise<RunEventText[]>;
  run(): Promise<Run>;
  /** Settles at the run's next change after this call, or after a second at the latest. */
  next(): Promise<void>;
  /** Waits for `change` (from `next`) unless `signal` aborts first. */
  until(change: Promise<void>, signal: AbortSignal | undefined): Promise<void>;
  /** Stops following; the tail goes when its last follower does. */
  release(): void;
}

/** The runs followed in this process, each with its tail while anyone follows it. */
export class RunTails {
  readonly #tails = new WeakMap<RunStore, Map<string, RunTail>>();

  follow(store: RunStore, runId: string): RunFollower {
    let tails = this.#tails.get(store);
    if (!tails) {
      tails = new Map();
      this.#tails.set(store, tails);
    }
    const all = tails;
    let tail = all.get(runId);
    if (!tail) {
      tail = new RunTail(store, runId);
      all.set(runId, tail);
    }
    tail.followers++;
    const current = tail;
    let released = false;
    return {
      events: (after, limit, fresh) =>
        fresh
          ? readTexts(store, runId, after, limit)
          : current.share(`events:${after}:${limit}`, () => readTexts(store, runId, after, limit)),
      run: () => current.share('run', () => store.getRun(runId)),
      next: () => current.next(),
      until: untilAborted,
      release: () => {
        if (released) return;
        released = true;
        if (--current.followers > 0) return;
        current.stop();
        if (all.get(runId) === current) all.delete(runId);
      },
    };
  }
}

/** A page of stored events as JSON text: the store's own when it has it, else serialised from `listEvents`. */
function readTexts(store: RunStore, runId: string, after: number, limit: number): Promise<RunEventText[]> {
  if (store.listEventTexts) return store.listEventTexts(runId, { after, limit });
  return store
    .listEvents(runId, { after, limit })
    .then((page) => page.map(({ seq, type, event }) => ({ seq, type, json: JSON.stringify(event) })));
}

function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void wait.then(done);
  });
}
