// The workbench's closed sets of names as plain lists, without zod, so that a browser bundle can import the
// values without the schema library; the schemas in this folder are built from them.

export const runnerKinds = ['keel', 'claude-code', 'codex', 'gemini', 'opencode', 'cursor', 'acp'] as const;
export type RunnerKind = (typeof runnerKinds)[number];

export const repositoryTypes = ['frontend', 'backend', 'custom'] as const;
export type RepositoryType = (typeof repositoryTypes)[number];

export const repositoryProviders = ['gitlab', 'github', 'other'] as const;

export const projectStatuses = ['CREATED', 'INITIALIZING', 'READY', 'FAILED'] as const;

export const knowledgeLayers = ['structure', 'business_flow', 'modules', 'index'] as const;
export type KnowledgeLayer = (typeof knowledgeLayers)[number];

export const knowledgeStatuses = ['pending', 'running', 'done', 'failed'] as const;

/** The task states of the spec's section 3, and CANCELLED (the workbench's addition). */
export const taskStates = [
  'CREATED',
  'INITIALIZING',
  'PLANNING',
  'PLAN_LOCKED',
  'TODO_READY',
  'CODING',
  'REVIEWING',
  'DONE',
  'CANCELLED',
] as const;
export type TaskState = (typeof taskStates)[number];

export const todoStatuses = ['pending', 'running', 'done', 'failed', 'skipped'] as const;
export type TodoStatus = (typeof todoStatuses)[number];

export const sessionStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type SessionStatus = (typeof sessionStatuses)[number];

/** What a session is for; with `owner_id` it says which record it belongs to. */
export const sessionKinds = [
  'knowledge',
  'task_init',
  'plan',
  'coding',
  'reviewer',
  'review',
  'conversation',
] as const;
export type SessionKind = (typeof sessionKinds)[number];

/** How a tool call is shown, whatever the runner called the tool. */
export const toolKinds = [
  'file_read',
  'file_edit',
  'command',
  'search',
  'web',
  'plan',
  'todo',
  'mcp',
  'other',
] as const;
export type ToolKind = (typeof toolKinds)[number];

// How a tool call is shown, by the kind it declares: a runtime tool's traits (`ToolTraits.kind`,
// `@keel/protocol/runtime/names`' toolTraitKinds) or an ACP agent's `tool_call.kind` (the traits' kinds are
// ACP's, plus `agent`). The one table the workbench's runners and keel-web's console read.
const toolKindOfDeclaredTable: Readonly<Record<string, ToolKind>> = {
  read: 'file_read',
  edit: 'file_edit',
  // Deleting or moving a file (ACP) changes the workspace as surely as an edit.
  delete: 'file_edit',
  move: 'file_edit',
  search: 'search',
  execute: 'command',
  fetch: 'web',
  think: 'other',
  agent: 'other',
  other: 'other',
};

/** The kind a tool call is shown as from the kind it declares (none, or one not known here: 'other'). */
export function toolKindOfDeclared(declared: string | null | undefined): ToolKind {
  return declared != null && Object.hasOwn(toolKindOfDeclaredTable, declared)
    ? (toolKindOfDeclaredTable[declared] ?? 'other')
    : 'other';
}

/**
 * How a call of the runtime's tool `toolName` is shown, from the kind its traits declare (`traitKind`;
 * none or one this version does not know: 'other'). Traits do not tell a task list from other thinking, nor
 * the MCP meta tools (added per run) from other tools: those go by name.
 *
 * @example
 * toolKindOfRuntimeTool('edit_file', 'edit'); // 'file_edit'
 * toolKindOfRuntimeTool('mcp_call', undefined); // 'mcp'
 */
export function toolKindOfRuntimeTool(toolName: string, traitKind: string | undefined): ToolKind {
  const kind = toolKindOfDeclared(traitKind);
  if (kind !== 'other') return kind;
  if (toolName.startsWith('todo_')) return 'todo';
  if (toolName.startsWith('mcp_')) return 'mcp';
  return 'other';
}

export const findingSeverities = ['error', 'warning', 'info'] as const;
export type FindingSeverity = (typeof findingSeverities)[number];

export const mergeRequestProviders = ['github', 'gitlab'] as const;
export type MergeRequestProvider = (typeof mergeRequestProviders)[number];
