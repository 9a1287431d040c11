// keel-web's wire: every record it answers (runs, steps, checkpoints, approvals, artifacts, audit entries,
// sessions, projects, tasks, sub-agents, skills, configuration), the run events (one schema per `type`),
// the request bodies, the WebSocket messages and the error shape, as zod schemas with their types.
// keel-web answers and validates through them, the console and clients import the types. No Node here: this runs in a browser as well.
export * from './agents.ts';
export * from './common.ts';
export * from './components.ts';
export * from './events.ts';
export * from './names.ts';
export * from './other-requests.ts';
export * from './projects.ts';
export * from './records.ts';
export * from './requests.ts';
export * from './runs.ts';
export * from './server.ts';
export * from './sessions.ts';
export * from './websocket.ts';
