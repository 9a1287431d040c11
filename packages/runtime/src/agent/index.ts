export type { BreakerLimits } from './circuit-breaker.ts';
export { defaultBreakerLimits } from './circuit-breaker.ts';
export type { AgentLoopInput, AgentOutcome } from './loop.ts';
export { runAgentLoop } from './loop.ts';
export { deriveMetadata } from './metadata.ts';
export { buildSystemPrompt } from './system-prompt.ts';
export { ToolRunner } from './tool-runner.ts';
