import type { QueuedMessage, Session, SessionStatus } from '@keel/protocol/workbench';
import type { SessionRecord } from '../store/index.ts';

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
// A session's record is the store's (store/records/session.ts): the store imports no area.
export type { SessionContext, SessionRecord } from '../store/index.ts';

export const finishedSessionStatuses: readonly SessionStatus[] = ['succeeded', 'failed', 'cancelled'];

/** A chat message waiting in a session's queue (`GET /api/sessions/{id}/queue`). */
export type QueuedMessageView = QueuedMessage;

/** The record as clients see it: its working context (paths, instructions) stays in the service. */
export function sessionView(record: SessionRecord): Session {
  const { context: _context, ...view } = record;
  return view;
}
