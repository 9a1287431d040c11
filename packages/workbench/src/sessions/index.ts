export { type Reservation, stopReasons } from './holds.ts';
export {
  type ChannelMessage,
  Hub,
  type Listener,
  type ProjectSnapshot,
  projectChannel,
  sessionChannel,
  type TaskSnapshot,
  taskChannel,
} from './hub.ts';
export { cleanUpLogs, failInterruptedSessions } from './maintenance.ts';
export type { QueuedMessage, SentMessage } from './message-queue.ts';
export { sessionRoutes } from './routes.ts';
export { SessionLog } from './session-log.ts';
export { SessionRunner } from './session-runner.ts';
export { Sessions } from './sessions.ts';
export type { RunnerSource, TurnHandler, TurnInput } from './turn.ts';
export {
  finishedSessionStatuses,
  type LogEntry,
  type QueuedMessageView,
  type SessionContext,
  type SessionEvent,
  type SessionKind,
  type SessionRecord,
  type SessionStatus,
  type StepEvent,
  sessionKinds,
  sessionStatuses,
  type UserActionEvent,
} from './types.ts';
export { addUsage } from './usage.ts';
export { registerWebSocket, type WebSocketDeps } from './websocket.ts';
