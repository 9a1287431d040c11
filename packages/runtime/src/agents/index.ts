// The kinds of sub-agent, as `POST /agent/spawn` and spawn_agent name them, are the wire's.
export { subAgentTypes } from '../wire/index.ts';
export { taskPrompt } from './agent-prompt.ts';
export type { SubAgent, SubAgentStatus } from './agent-record.ts';
export {
  finishedAgentStatuses,
  subAgentStatuses,
  subAgentStatusOf,
  toSubAgent,
  withUtcOffset,
} from './agent-record.ts';
export { createAgentTools, toolsForRun, withAgentTools } from './agent-tools.ts';
export {
  agentMetaToolNames,
  promptForSpecialist,
  promptForType,
  toolsForSpecialist,
  toolsForType,
} from './agent-types.ts';
export type { AgentScope, AgentsDeps } from './agents-api.ts';
export { AgentsApi } from './agents-api.ts';
export {
  awaitedAgent,
  expireOverdueAgents,
  killAndWait,
  killRun,
  killStrayAgents,
  settleEndedRun,
  wakeIfWaitingOn,
} from './run-family.ts';
export type { ParsedSpawnRequest, SpawnRequest } from './spawn-request.ts';
export {
  defaultAgentLimits,
  maxAgentTimeoutSeconds,
  parseSpawnRequest,
  spawnRequestSchema,
} from './spawn-request.ts';
export type { ConfiguredSpecialist, Specialist } from './specialists.ts';
export { builtinSpecialists, resolveSpecialists } from './specialists.ts';
