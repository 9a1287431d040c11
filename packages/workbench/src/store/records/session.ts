import type { SessionContext, SessionKind, SessionRecord } from '../../sessions/index.ts';

/** A session as stored: `busy` (whether a runner holds it now) is the session runner's, in memory. */
export type StoredSession = Omit<SessionRecord, 'busy'>;

export interface NewSession {
  kind: SessionKind;
  ownerId: string | null;
  runnerConfigId: string;
  context: SessionContext;
}

export type SessionPatch = Partial<Omit<SessionRecord, 'id' | 'created_at' | 'busy'>>;

/** The sessions: one row per session, its status snapshot (its events are in the session log). */
export interface SessionRecords {
  /** A new session, `queued`. */
  create(input: NewSession): Promise<StoredSession>;
  /** The session, or undefined. */
  find(id: string): Promise<StoredSession | undefined>;
  /** Throws 404 SESSION_NOT_FOUND. */
  get(id: string): Promise<StoredSession>;
  /** Sets the fields of `patch` and updated_at; SESSION_NOT_FOUND for an unknown id. */
  update(id: string, patch: SessionPatch): Promise<StoredSession>;
  byStatus(status: SessionRecord['status']): Promise<StoredSession[]>;
  /** Finished sessions that ended before `before` (ISO time). */
  endedBefore(before: string): Promise<StoredSession[]>;
  /** Oldest first. */
  byOwner(ownerId: string): Promise<StoredSession[]>;
}
