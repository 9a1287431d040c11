export type { AgentExecutorInput, AgentHooks, ToolApproval } from './agent-executor.ts';
export { executeAgent } from './agent-executor.ts';
export type { AgentState } from './agent-state.ts';
export { newAgentState } from './agent-state.ts';
export type { BreakerLimits, BreakerState } from './circuit-breaker.ts';
export { checkBreaker, defaultBreakerLimits } from './circuit-breaker.ts';
export { deriveMetadata } from './metadata.ts';
export { buildSystemPrompt } from './system-prompt.ts';
export { ToolRunner } from './tool-runner.ts';
