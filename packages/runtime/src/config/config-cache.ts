import { statSync } from 'node:fs';
import type { RuntimeConfig } from './schema.ts';

/** Spec section 8: how long a configuration file, once read, may be answered from memory. */
export const configCacheMs = 60_000;

interface Entry {
  config: RuntimeConfig;
  readAt: number;
  /** The file's size and modification time when read; null when it did not exist. */
  stamp: string | null;
}

/**
 * Parsed configuration files, kept for at most `ttlMs` (60 s). Every run, tool call and request reads the
 * configuration; a stat is far cheaper than reading, parsing and validating. An entry is dropped early when
 * the process writes the file (ConfigFile) or the file's size or modification time changes, so an edit is
 * seen at once; the time limit bounds what a change the stat cannot see (same size, same second) may cost.
 */
export class ConfigCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? configCacheMs;
    this.#now = options.now ?? Date.now;
  }

  /** The cached config of `path`, or what `read` answers (then kept). */
  get(path: string, read: (path: string) => RuntimeConfig): RuntimeConfig {
    const stamp = stampOf(path);
    const entry = this.#entries.get(path);
    if (entry && entry.stamp === stamp && this.#now() - entry.readAt < this.#ttlMs) return entry.config;
    const config = read(path);
    this.#entries.set(path, { config, readAt: this.#now(), stamp });
    return config;
  }

  /** Forgets `path` (after this process wrote it), or everything. */
  invalidate(path?: string): void {
    if (path === undefined) this.#entries.clear();
    else this.#entries.delete(path);
  }
}

function stampOf(path: string): string | null {
  const info = statSync(path, { throwIfNoEntry: false });
  return info ? `${info.size}:${info.mtime.getTime()}` : null;
}

/** The process's cache, used by loadConfig and cleared by every ConfigFile write. */
export const configCache = new ConfigCache();
