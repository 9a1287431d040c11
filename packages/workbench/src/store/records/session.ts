import type { Session, SessionKind } from '@keel/protocol/workbench';

/** Where and how a session's runner works; kept so that a later turn (chat) runs the same way. */
export interface SessionContext {
  workdir: string;
  allowedRoots?: string[];
  instructions?: string;
  skillDirs: string[];
  /** The agent may read the workdir but not change it (knowledge runs in the user's own repositories). */
  readOnly?: boolean;
}

/** A session as the service keeps it: what clients see, and where and how its runner works. */
export interface SessionRecord extends Session {
  context: SessionContext;
}

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
