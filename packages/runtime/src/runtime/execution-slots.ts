/**
 * At most `size` runs execute in this process at once (RuntimeOptions.maxRunning); the others wait their
 * turn, first come first served, and stay queued in the store meanwhile, so any worker may take them.
 */
export class ExecutionSlots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  /**
   * Waits for a slot; resolves with the function that gives it back (once), or with null when `signal`
   * aborts first.
   */
  async take(signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return null;
    if (this.#free > 0) {
      this.#free--;
      return this.#giveBack();
    }
    const granted = await new Promise<boolean>((resolve) => {
      const turn = () => {
        signal?.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = () => {
        this.#waiting.splice(this.#waiting.indexOf(turn), 1);
        resolve(false);
      };
      this.#waiting.push(turn);
      signal?.addEventListener('abort', leave, { once: true });
    });
    return granted ? this.#giveBack() : null;
  }

  /** Runs waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #giveBack(): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      // Handed straight to the next in line, so no newcomer can overtake it.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
