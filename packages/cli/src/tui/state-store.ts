/**
 * The TUI's state outside React: the controller updates it, the view subscribes to it
 * (`useSyncExternalStore`). Keeping it here lets tests drive the controller without a terminal.
 */
export class StateStore<T> {
  #state: T;
  readonly #listeners = new Set<() => void>();

  constructor(initial: T) {
    this.#state = initial;
  }

  get = (): T => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  update(change: (state: T) => T): void {
    this.#state = change(this.#state);
    for (const listener of [...this.#listeners]) listener();
  }
}
