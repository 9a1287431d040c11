// @keel/workbench-client: a typed client of keel-workbench's REST API and `WS /api/ws`, on the wire's
// schemas of @keel/protocol. No Node APIs: the global fetch and WebSocket (Node ≥ 22, browsers).
export type { ReconnectOptions, WebSocketFactory } from './channel.ts';
export {
  type ConversationStarted,
  createWorkbenchClient,
  type PlanSaved,
  type PlanVersionList,
  type ProjectInitStarted,
  type TaskMergeRequests,
  type TaskWithSession,
  type TaskWithTodos,
  type TodoWithList,
  type TodoWithSession,
  type WorkbenchClient,
  type WorkbenchClientOptions,
} from './client.ts';
export { WorkbenchApiError, WorkbenchConnectionError, WorkbenchResponseError } from './errors.ts';
export type { ApiKey, Fetch } from './http.ts';
export type * from './requests.ts';
export { type SubscribeOptions, sessionEnded, type WaitOptions } from './sessions.ts';
export {
  type ProjectListener,
  type SessionListener,
  type SocketOptions,
  type TaskListener,
  WorkbenchSocket,
} from './socket.ts';
export type { PreviewOutput, TaskEvents, WatchOptions } from './tasks.ts';
