/**
 * Work that outlives the request that started it (knowledge generation, a stage's AI turn, git pushes).
 * Tracked so that closing the service waits for it, and so that a failure is logged rather than lost
 * (the work itself records failures as data: a failed step, layer, todo or session).
 */
export class Background {
  readonly #work = new Set<Promise<void>>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void = () => {}) {
    this.#onError = onError;
  }

  run(work: () => Promise<void>): void {
    const promise = work()
      .catch((error) => this.#onError(error))
      .finally(() => this.#work.delete(promise));
    this.#work.add(promise);
  }

  async idle(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }
}
