import type { QueuedMessage, Session, SessionStatus } from '@keel/protocol/workbench';

export {
  type LogEntry,
  type SessionEvent,
  type SessionKind,
  type SessionStatus,
  type StepEvent,
  sessionKinds,
  sessionStatuses,
  type UserActionEvent,
} from '@keel/protocol/workbench';

export const finishedSessionStatuses: readonly SessionStatus[] = ['succeeded', 'failed', 'cancelled'];

/** Where and how a session's runner works; kept so that a later turn (chat) runs the same way. */
export interface SessionContext {
  workdir: string;
  allowedRoots?: string[];
  instructions?: string;
  skillDirs: string[];
  /** The agent may read the workdir but not change it (knowledge runs in the user's own repositories). */
  readOnly?: boolean;
}

/** A chat message waiting in a session's queue (`GET /api/sessions/{id}/queue`). */
export type QueuedMessageView = QueuedMessage;

/** A session as the service keeps it: what clients see, and where and how its runner works. */
export interface SessionRecord extends Session {
  context: SessionContext;
}

/** The record as clients see it: its working context (paths, instructions) stays in the service. */
export function sessionView(record: SessionRecord): Session {
  const { context: _context, ...view } = record;
  return view;
}
