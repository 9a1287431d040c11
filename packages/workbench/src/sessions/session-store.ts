import { type Database, sessionQueries as queries } from '../store/index.ts';
import type { SessionContext, SessionKind, SessionRecord } from './types.ts';

/**
 * The sessions table: one row per session, its status snapshot. Synchronously: a transitional face over the
 * SQLite dialect's queries for the callers not yet moved to the async `WorkbenchStore` contract
 * (`store.sessions`); it adds `busy`, which is the session runner's, in memory.
 */
export class SessionStore {
  readonly #db: Database;
  /** Whether a session is held for work now (the session runner's, in memory); set once by the services. */
  busy: (id: string) => boolean = () => false;

  constructor(db: Database) {
    this.#db = db;
  }

  #record = (stored: Omit<SessionRecord, 'busy'>): SessionRecord => ({
    ...stored,
    busy: this.busy(stored.id),
  });

  create(input: {
    kind: SessionKind;
    ownerId: string | null;
    runnerConfigId: string;
    context: SessionContext;
  }): SessionRecord {
    return this.#record(queries.createSession(this.#db, input));
  }

  find(id: string): SessionRecord | undefined {
    const found = queries.findSession(this.#db, id);
    return found ? this.#record(found) : undefined;
  }

  get(id: string): SessionRecord {
    return this.#record(queries.getSession(this.#db, id));
  }

  update(id: string, patch: Partial<Omit<SessionRecord, 'id' | 'created_at' | 'busy'>>): SessionRecord {
    return this.#record(queries.updateSession(this.#db, id, patch));
  }

  byStatus(status: SessionRecord['status']): SessionRecord[] {
    return queries.sessionsByStatus(this.#db, status).map(this.#record);
  }

  /** Finished sessions that ended before `before` (ISO time): their logs may be cleaned up. */
  endedBefore(before: string): SessionRecord[] {
    return queries.sessionsEndedBefore(this.#db, before).map(this.#record);
  }

  byOwner(ownerId: string): SessionRecord[] {
    return queries.sessionsByOwner(this.#db, ownerId).map(this.#record);
  }
}
