import type { StatementSync } from 'node:sqlite';

interface Watched {
  listeners: Set<() => void>;
  /** `last_seq|status|updated_at` when last looked at; '' while the run does not exist. */
  seen: string;
}

type WatchRow = { id: string; last_seq: number; status: string; updated_at: string };

/**
 * SQLite has no notifications across processes, so subscribers are served by polling: one timer per
 * store reads the watched runs' cursor, status and update time in one query and calls the listeners of
 * those that changed. The timer runs only while someone listens and never keeps the process alive.
 */
export class SqliteRunWatch {
  readonly #query: StatementSync;
  readonly #pollMs: number;
  readonly #watched = new Map<string, Watched>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(query: StatementSync, pollMs: number) {
    this.#query = query;
    this.#pollMs = pollMs;
  }

  subscribe(runId: string, listener: () => void): () => void {
    if (this.#closed) return () => {};
    let watched = this.#watched.get(runId);
    if (!watched) {
      // The baseline is read now, so a change made after subscribe returns is always reported.
      watched = { listeners: new Set(), seen: this.#read([runId]).get(runId) ?? '' };
      this.#watched.set(runId, watched);
    }
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry = (): void => listener();
    watched.listeners.add(entry);
    this.#timer ??= setInterval(() => this.#poll(), this.#pollMs).unref();
    return () => {
      const current = this.#watched.get(runId);
      if (!current?.listeners.delete(entry)) return;
      if (current.listeners.size === 0) this.#watched.delete(runId);
      if (this.#watched.size === 0) this.#stop();
    };
  }

  close(): void {
    this.#closed = true;
    this.#watched.clear();
    this.#stop();
  }

  #stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #read(runIds: string[]): Map<string, string> {
    const rows = this.#query.all({ ids: JSON.stringify(runIds) }) as unknown as WatchRow[];
    return new Map(rows.map((row) => [row.id, `${row.last_seq}|${row.status}|${row.updated_at}`]));
  }

  /**
   * This process just committed changes to these runs (the store's group commit): their listeners hear
   * of it now rather than at the next beat, which then does not report the same change again.
   */
  changed(runIds: Iterable<string>): void {
    const watched = [...runIds].filter((runId) => this.#watched.has(runId));
    if (watched.length > 0) this.#check(watched);
  }

  #poll(): void {
    this.#check([...this.#watched.keys()]);
  }

  #check(runIds: string[]): void {
    let states: Map<string, string>;
    try {
      states = this.#read(runIds);
    } catch {
      // A busy or closing database: the next beat tries again; a listener never sees the failure.
      return;
    }
    for (const runId of runIds) {
      const watched = this.#watched.get(runId);
      if (!watched) continue;
      const state = states.get(runId) ?? '';
      if (state === watched.seen) continue;
      watched.seen = state;
      for (const listener of [...watched.listeners]) {
        try {
          listener();
        } catch {
          // A throwing listener must not stop the others or the timer.
        }
      }
    }
  }
}
