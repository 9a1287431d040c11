// The workbench's wire: every record, event, WebSocket message and the error shape, as zod schemas with
// their types. The service answers through them (a response that does not match is a bug it reports), the
// SPA and clients import the types. No Node here: this runs in a browser as well.
export * from './answers.ts';
export * from './branch-name.ts';
export * from './common.ts';
export * from './components.ts';
export * from './diffs.ts';
export * from './events.ts';
export * from './library.ts';
export * from './names.ts';
export * from './other-requests.ts';
export * from './previews.ts';
export * from './project-requests.ts';
export * from './projects.ts';
export * from './sessions.ts';
export * from './settings.ts';
export * from './settings-requests.ts';
export * from './task-requests.ts';
export * from './tasks.ts';
export * from './websocket.ts';
