export type { ParsedRunRequest, RunRequest } from './run-request.ts';
export { imagePayloadSchema, parseRunRequest, runRequestSchema } from './run-request.ts';
export type { RunResult } from './run-result.ts';
export { ApprovalsApi, ArtifactsApi, AuditApi, RunsApi } from './runs-api.ts';
export type { DriveOptions, RunOptions, RuntimeOptions, WorkOptions } from './runtime.ts';
export { createRuntime, Runtime } from './runtime.ts';
export type { SkillChange, SkillQuery } from './skills-api.ts';
export { SkillsApi } from './skills-api.ts';
export { normaliseWorkdir } from './workdir.ts';
