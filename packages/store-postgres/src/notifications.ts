import pg from 'pg';
import { channel } from './database.ts';

const retryMs = 1000;

/**
 * One LISTEN connection per store, shared by every subscriber and dispatched by run id.
 *
 * It is opened with the store and held until `close()`, not opened by the first subscriber: `subscribe` is
 * synchronous, and a connection still being set up would miss what happens before its LISTEN takes effect.
 * Waking every subscriber once it is up would cover that gap, but it would also call listeners of runs
 * that did not change, which the contract forbids.
 */
export class NotificationHub {
  readonly #config: pg.ClientConfig;
  readonly #listeners = new Map<string, Set<() => void>>();
  #client: pg.Client | null = null;
  #retry: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(config: pg.ClientConfig) {
    this.#config = config;
  }

  /** Connects and listens; rejects when the database cannot be reached. */
  async start(): Promise<void> {
    this.#client = await this.#connect();
  }

  subscribe(runId: string, listener: () => void): () => void {
    if (this.#closed) return () => {};
    // Wrapped so the same function may subscribe twice and unsubscribe each time separately.
    const entry = () => listener();
    let set = this.#listeners.get(runId);
    if (!set) {
      set = new Set();
      this.#listeners.set(runId, set);
    }
    set.add(entry);
    return () => {
      const current = this.#listeners.get(runId);
      if (!current?.delete(entry)) return;
      if (current.size === 0) this.#listeners.delete(runId);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client(this.#config);
    client.on('error', () => this.#lost(client));
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) this.#dispatch(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    return client;
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.end().catch(() => {});
    this.#reconnectLater();
  }

  #reconnectLater(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(async () => {
      try {
        const client = await this.#connect();
        this.#retry = null;
        if (this.#closed) {
          await client.end().catch(() => {});
          return;
        }
        this.#client = client;
        // Notifications sent while the connection was down are lost: every subscriber re-reads once.
        for (const runId of [...this.#listeners.keys()]) this.#dispatch(runId);
      } catch {
        this.#retry = null;
        this.#reconnectLater();
      }
    }, retryMs);
    this.#retry.unref();
  }

  #dispatch(runId: string): void {
    const set = this.#listeners.get(runId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener();
      } catch {
        // A failing listener must not stop the others from hearing about the run.
      }
    }
  }
}
