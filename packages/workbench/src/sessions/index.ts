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
export { sessionRoutes } from './routes.ts';
export { SessionLog } from './session-log.ts';
export {
  type QueuedMessage,
  type Reservation,
  type RunnerSource,
  type SentMessage,
  SessionRunner,
  stopReasons,
  type TurnHandler,
  type TurnInput,
} from './session-runner.ts';
export { Sessions } from './sessions.ts';
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
