import type { AuditEntry, AuditQuery, RunStore } from '../store/index.ts';

/** The runtime's audit log: tool calls, file writes and edits, run controls and approvals. */
export class AuditApi {
  readonly #store: () => Promise<RunStore>;

  constructor(store: () => Promise<RunStore>) {
    this.#store = store;
  }

  /** Newest first, with the total that matched; `limit` defaults to 50. */
  async list(query: AuditQuery = {}): Promise<{ entries: AuditEntry[]; total: number }> {
    return (await this.#store()).listAudit(query);
  }
}
