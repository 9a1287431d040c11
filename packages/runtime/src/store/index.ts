export { newId } from './ids.ts';
export type { Session, SessionDetail, SessionMessage } from './session-store.ts';
export { localTimestamp, SessionStore } from './session-store.ts';
export { openSqlite } from './sqlite.ts';
