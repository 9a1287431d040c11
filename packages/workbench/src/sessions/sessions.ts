import type { NewSession, SessionPatch, SessionRecords, StoredSession } from '../store/index.ts';
import type { SessionRecord } from './types.ts';

/**
 * The sessions as every caller sees them: the store contract's session records (`store.sessions`) with
 * `busy`, which is the session runner's, in memory, added to each.
 */
export class Sessions {
  readonly #records: SessionRecords;
  /** Whether a session is held for work now (the session runner's, in memory); set once by the services. */
  busy: (id: string) => boolean = () => false;
  /** Told of every change of a session by `update` (the service log's failures). */
  onChange: ((session: SessionRecord) => void) | undefined;

  constructor(records: SessionRecords) {
    this.#records = records;
  }

  #record = (stored: StoredSession): SessionRecord => ({ ...stored, busy: this.busy(stored.id) });

  async create(input: NewSession): Promise<SessionRecord> {
    return this.#record(await this.#records.create(input));
  }

  async find(id: string): Promise<SessionRecord | undefined> {
    const found = await this.#records.find(id);
    return found ? this.#record(found) : undefined;
  }

  /** Throws 404 SESSION_NOT_FOUND. */
  async get(id: string): Promise<SessionRecord> {
    return this.#record(await this.#records.get(id));
  }

  async update(id: string, patch: SessionPatch): Promise<SessionRecord> {
    const session = this.#record(await this.#records.update(id, patch));
    try {
      this.onChange?.(session);
    } catch {
      // a listener's failure is not the store's
    }
    return session;
  }

  async byStatus(status: SessionRecord['status']): Promise<SessionRecord[]> {
    return (await this.#records.byStatus(status)).map(this.#record);
  }

  /** Finished sessions that ended before `before` (ISO time): their logs may be cleaned up. */
  async endedBefore(before: string): Promise<SessionRecord[]> {
    return (await this.#records.endedBefore(before)).map(this.#record);
  }

  async byOwner(ownerId: string): Promise<SessionRecord[]> {
    return (await this.#records.byOwner(ownerId)).map(this.#record);
  }
}
