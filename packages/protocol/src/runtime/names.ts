// keel-web's closed sets of names as plain lists, without the schema library: for a browser bundle that
// wants the values (the console's status filters) and not zod. The schemas of `./index.ts` are built on them.

// The run statuses and the kinds of sub-agent are the runtime's own, from its zod-free wire names
// (docs/decisions/2026-11-28-wire-defined-once.md).
export {
  finishedStatuses,
  type RunStatus,
  runStatuses,
  type SubAgentType,
  subAgentTypes,
} from '@keel/runtime/wire/names';

/** `context`: the agent's history pruned or compacted to fit its model. */
export const stepKinds = ['model_turn', 'tool_batch', 'context', 'tool', 'approval', 'gate', 'node'] as const;
export type StepKind = (typeof stepKinds)[number];
export const stepStatuses = ['running', 'succeeded', 'failed', 'cancelled', 'waiting', 'abandoned'] as const;
export type StepStatus = (typeof stepStatuses)[number];

/** tool: a tool call a policy holds; node: a workflow's approval node; question: the model asks. */
export const approvalKinds = ['tool', 'node', 'question'] as const;
export type ApprovalKind = (typeof approvalKinds)[number];
/** `expired`: nobody decided within the interaction timeout. */
export const approvalStatuses = [
  'pending',
  'approved',
  'rejected',
  'answered',
  'cancelled',
  'expired',
] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export const subAgentStatuses = ['pending', 'running', 'completed', 'failed', 'killed', 'timeout'] as const;
export type SubAgentStatus = (typeof subAgentStatuses)[number];

export const skillSources = ['builtin', 'global', 'project', 'custom'] as const;
export type SkillSource = (typeof skillSources)[number];

/** What a runtime tool does, as its traits declare (`ToolTraits.kind`). */
export const toolTraitKinds = [
  'read',
  'edit',
  'search',
  'execute',
  'fetch',
  'think',
  'agent',
  'other',
] as const;
export type ToolTraitKind = (typeof toolTraitKinds)[number];

/** What a key of an untrusted project file could have done (the runtime's trust table). */
export const trustKinds = [
  'harmless',
  'endpoint',
  'command',
  'sandbox',
  'policy',
  'network',
  'storage',
  'path',
  'trust-list',
  'unknown',
] as const;
export type TrustKind = (typeof trustKinds)[number];

/** The message roles a session's detail shows. */
export const messageRoles = ['system', 'user', 'assistant', 'tool'] as const;
export type MessageRole = (typeof messageRoles)[number];
