import type { RunStore } from '@keel/runtime';
import type { NewAuditEntry } from '@keel/runtime/store/contract';
import type { ServiceLog } from '@keel/service';

/**
 * Writes audit entries to the server's store without making anyone wait: `record` returns at once and
 * a failed write is only logged, so a slow or broken audit log never slows or fails a request.
 */
export class AuditRecorder {
  readonly #store: () => Promise<RunStore>;
  readonly #log: ServiceLog | undefined;
  readonly #pending = new Set<Promise<void>>();
  #closed = false;

  constructor(store: () => Promise<RunStore>, log?: ServiceLog) {
    this.#store = store;
    this.#log = log;
  }

  record(entry: NewAuditEntry): void {
    if (this.#closed) return;
    const write = (async () => {
      await (await this.#store()).recordAudit(entry);
    })()
      .catch((error: unknown) => this.#log?.warn('audit entry not recorded', { event: entry.event, error }))
      .finally(() => this.#pending.delete(write));
    this.#pending.add(write);
  }

  /** Takes no more entries and waits for the ones under way, so none writes to a closed store. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#pending);
  }
}
