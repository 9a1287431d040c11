export { newId } from './ids.ts';
export type { ControlKind, Run, RunEventRecord, RunStatus } from './run-store.ts';
export { finishedStatuses, RunStore } from './run-store.ts';
export type { Session, SessionDetail, SessionMessage } from './session-store.ts';
export { localTimestamp, SessionStore } from './session-store.ts';
export { openSqlite } from './sqlite.ts';
