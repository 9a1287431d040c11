export { ApprovalsApi } from './approvals-api.ts';
export { ArtifactsApi } from './artifacts-api.ts';
export { AuditApi } from './audit-api.ts';
export type { ParsedRunRequest, RunRequest } from './run-request.ts';
export { imagePayloadSchema, parseRunRequest, runRequestSchema } from './run-request.ts';
export type { RunResult } from './run-result.ts';
export { RunsApi } from './runs-api.ts';
export { createRuntime, Runtime } from './runtime.ts';
export type {
  DriveOptions,
  FollowOptions,
  RunOptions,
  RuntimeOptions,
  WorkOptions,
} from './runtime-options.ts';
export { unconfinedCommandsNote } from './sandbox-note.ts';
export type { SkillChange, SkillQuery } from './skills-api.ts';
export { SkillsApi } from './skills-api.ts';
export { normaliseWorkdir } from './workdir.ts';
