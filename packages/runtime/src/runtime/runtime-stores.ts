import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { loadConfig } from '../config/index.ts';
import type { RecoveryPolicy } from '../runs/index.ts';
import type { BlobStore, RunStore } from '../store/index.ts';
import { openStores } from './open-store.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { normaliseWorkdir } from './workdir.ts';

/** A runtime's run store and blob store, and whether the runtime owns them (and so closes them). */
export interface OpenedRuntimeStores {
  store: RunStore;
  blobs: BlobStore;
  owned: boolean;
}

/**
 * The stores of one runtime, opened on first use from the configuration of its workdir (or the ones the
 * embedder passed in), and closed with it.
 */
export class RuntimeStores {
  readonly #options: RuntimeOptions;
  readonly #runtimeDir: string;
  readonly #db: DatabaseSync;
  #opened: Promise<OpenedRuntimeStores> | undefined;
  #configLeaseMs: number | undefined;
  #configRecovery: Partial<RecoveryPolicy> = {};

  /** `db` is the runtime's own database: the default SQLite store shares it. */
  constructor(options: RuntimeOptions, runtimeDir: string, db: DatabaseSync) {
    this.#options = options;
    this.#runtimeDir = runtimeDir;
    this.#db = db;
  }

  /** Config `runs.lease_ms`, once the stores are open (read with them). */
  get configLeaseMs(): number | undefined {
    return this.#configLeaseMs;
  }

  /** Config `runs.auto_recover` and `runs.max_recoveries` (those set), once the stores are open. */
  get configRecovery(): Partial<RecoveryPolicy> {
    return this.#configRecovery;
  }

  opened(): Promise<OpenedRuntimeStores> {
    this.#opened ??= (async () => {
      const workdir = this.#options.workdir ? await normaliseWorkdir(this.#options.workdir) : process.cwd();
      // Untrusted, a project file's `store` and `artifacts` keys do not apply: the global config chooses.
      const trust = this.#options.storeFromProjectConfig === false ? false : this.#options.trustProjectConfig;
      const config = loadConfig(this.#runtimeDir, workdir, trust);
      // Read once with the store: claims (every idle poll of work()) must not re-read config files.
      this.#configLeaseMs = config.runs?.lease_ms;
      const { auto_recover: enabled, max_recoveries: maxRecoveries } = config.runs ?? {};
      this.#configRecovery = {
        ...(enabled === undefined ? {} : { enabled }),
        ...(maxRecoveries === undefined ? {} : { maxRecoveries }),
      };
      const opened = await openStores(
        config,
        {
          runtimeDir: this.#runtimeDir,
          workdir,
          db: this.#db,
          defaultDbPath: join(this.#runtimeDir, 'keel.db'),
        },
        this.#options.now,
      );
      return {
        store: this.#options.store ?? opened.store,
        blobs: this.#options.blobs ?? opened.blobs,
        owned: !this.#options.store,
      };
    })();
    // A store that failed to open is opened afresh next time: a worker waits for its database.
    const opening = this.#opened;
    opening.catch(() => {
      if (this.#opened === opening) this.#opened = undefined;
    });
    return opening;
  }

  /** Closes what was opened: the store if the runtime owns it, and the blob store. */
  async close(): Promise<void> {
    if (!this.#opened) return;
    const { store, blobs, owned } = await this.#opened.catch(() => ({
      store: null,
      blobs: null,
      owned: false,
    }));
    if (owned && store) await store.close();
    await blobs?.close?.();
  }
}
