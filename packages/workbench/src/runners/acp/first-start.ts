/**
 * Lets the first start of an agent finish opening its session before any other start of the same agent on
 * the same data goes ahead. An agent's first start sets up its own state (opencode 1.18 creates its SQLite
 * database then), and several first starts at once race on it: knowledge generation starts eight sessions
 * together, and on a fresh install some of them failed. Later starts are not held back.
 */
export class FirstStarts {
  readonly #opened = new Map<string, Promise<void>>();

  /**
   * Waits for the first start of `key` if another is under way; answers `done` to call once this start
   * has opened its session (or failed to), which lets the others go.
   */
  async enter(key: string): Promise<() => void> {
    const first = this.#opened.get(key);
    if (first) {
      await first;
      return () => undefined;
    }
    let done: () => void = () => undefined;
    this.#opened.set(
      key,
      new Promise<void>((resolve) => {
        done = resolve;
      }),
    );
    return done;
  }
}

/** What separates one agent's state from another's: its program and where it keeps its data. */
export function agentStateKey(binary: string, env: NodeJS.ProcessEnv): string {
  return [binary, env.XDG_DATA_HOME ?? '', env.HOME ?? ''].join('\u0000');
}
