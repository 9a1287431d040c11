// The runner layer: the contract every runner kind implements, runner resolution, the registry of
// implemented runners and the Keel runtime in process.
export type {
  McpServerSetting,
  ModelSetting,
  Runner,
  RunnerAvailability,
  RunnerConfig,
  RunnerErrorObject,
  RunnerEvent,
  RunnerEventType,
  RunnerImage,
  RunnerKind,
  RunnerOutcome,
  RunnerRequest,
  RunnerUsage,
  ToolKind,
} from './contract.ts';
export { runnerKinds, toolKinds } from './contract.ts';
export type { KeelRunnerOptions } from './keel-request.ts';
export { KeelRunner } from './keel-runner.ts';
export type { RunnerRegistry, RunnerRegistryOptions } from './registry.ts';
export { createRunnerRegistry } from './registry.ts';
export type { RunnerChoice, RunnerLevel } from './resolve-runner.ts';
export { builtinRunnerConfigs, resolveRunner } from './resolve-runner.ts';
export { toolKindOf } from './tool-kind.ts';
