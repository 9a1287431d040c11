/** What the limiter decided about one request. */
export interface WindowDecision {
  allowed: boolean;
  /** Maximum requests in any window. */
  limit: number;
  /** Requests the client may still make in the current window (after this one). */
  remaining: number;
  /** When refused: whole seconds until the oldest counted request leaves the window (at least 1). */
  retryAfterSeconds: number;
}

export interface SlidingWindowOptions {
  windowMs: number;
  /** Requests allowed in any `windowMs`-long interval. */
  max: number;
  /** Clients tracked at once; beyond it the least recently seen is forgotten (default 10 000). */
  maxClients?: number;
  now?: () => number;
}

/**
 * A sliding-window log per client: a request is allowed when fewer than `max` allowed requests of that
 * client fall in the last `windowMs`. Unlike a fixed window there is no reset instant at which a client
 * may send a double burst. Refused requests are not counted, so a client that keeps retrying gets in as
 * soon as its oldest request leaves the window.
 *
 * Memory stays bounded: at most `max` timestamps per client, clients idle for a whole window are
 * dropped (swept at most once per window, on a request), and at most `maxClients` are kept.
 */
export class SlidingWindowLimiter {
  readonly #windowMs: number;
  readonly #max: number;
  readonly #maxClients: number;
  readonly #now: () => number;
  /** Allowed request times per client, oldest first; Map order is least recently seen first. */
  readonly #hits = new Map<string, number[]>();
  #lastSweep: number;

  constructor(options: SlidingWindowOptions) {
    this.#windowMs = options.windowMs;
    this.#max = options.max;
    this.#maxClients = options.maxClients ?? 10_000;
    this.#now = options.now ?? Date.now;
    this.#lastSweep = this.#now();
  }

  /** Clients currently tracked (for tests and diagnostics). */
  get clients(): number {
    return this.#hits.size;
  }

  /** Counts one request of `client` if the window has room, and says so. */
  hit(client: string): WindowDecision {
    return this.#decide(client, true);
  }

  /** What `hit` would decide for `client` now, without counting anything. */
  peek(client: string): WindowDecision {
    return this.#decide(client, false);
  }

  #decide(client: string, count: boolean): WindowDecision {
    const now = this.#now();
    this.#sweep(now);
    const cutoff = now - this.#windowMs;
    const times = (this.#hits.get(client) ?? []).filter((time) => time > cutoff);
    // Re-inserting keeps the Map ordered by last sight, so the eviction below drops the stalest client.
    this.#hits.delete(client);
    const allowed = times.length < this.#max;
    if (allowed && count) times.push(now);
    if (times.length > 0) this.#hits.set(client, times);
    if (this.#hits.size > this.#maxClients) {
      const stalest = this.#hits.keys().next().value;
      if (stalest !== undefined) this.#hits.delete(stalest);
    }
    const oldest = times[0] ?? now;
    return {
      allowed,
      limit: this.#max,
      remaining: Math.max(0, this.#max - times.length - (allowed && !count ? 1 : 0)),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((oldest + this.#windowMs - now) / 1000)),
    };
  }

  /** Drops clients with no request in the last window; runs at most once per window. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < this.#windowMs) return;
    this.#lastSweep = now;
    const cutoff = now - this.#windowMs;
    for (const [client, times] of this.#hits) {
      if ((times.at(-1) ?? 0) <= cutoff) this.#hits.delete(client);
    }
  }
}
