// @keel/runtime/wire: the runtime's definitions that travel on the wire, written once here and re-exported
// by @keel/protocol (docs/decisions/2026-11-28-wire-defined-once.md). Zod only: no Node, no openai, so a
// browser bundle can load them; packages/protocol/test/runtime-wire.test.ts holds the folder to that.

export type { EventBody, EventOf, EventType, RunMetadata, RuntimeEvent, ToolTrace, Usage } from './events.ts';
export { errorObjectSchema, eventSchemas, metadataSchema, toolTraceSchema, usageSchema } from './events.ts';
export type { RunStatus, SubAgentType } from './names.ts';
export { finishedStatuses, runStatuses, subAgentTypes } from './names.ts';
export type { NewProjectInput, NewTaskInput, ProjectUpdateInput, TaskUpdateInput } from './project-bodies.ts';
export { newProjectSchema, newTaskSchema, projectUpdateSchema, taskUpdateSchema } from './project-bodies.ts';
export type { ParsedRunRequest, RunRequest } from './run-request.ts';
export { imagePayloadSchema, runRequestSchema } from './run-request.ts';
export type { SpawnRequest } from './spawn-request.ts';
export { maxAgentTimeoutSeconds, spawnRequestSchema } from './spawn-request.ts';
