export { createCodingTools } from './coding-tools.ts';
export type {
  CommandOutcome,
  CommandPolicyOptions,
  CommandVerdict,
  Invocation,
  RunCommandOptions,
  ShellRedirect,
  ShellWord,
  SimpleCommand,
  UnconfinedCommands,
} from './commands/index.ts';
export {
  CommandPolicy,
  commandEnvironment,
  createCommandPolicy,
  defaultAllowedCommands,
  defaultCommandTimeoutMs,
  execCommandTool,
  invocationsOf,
  maxCommandOutputChars,
  maxCommandTimeoutMs,
  parseCommandLine,
  runCommand,
  runShellCommand,
  ShellSyntaxError,
  unconfinedAdvice,
} from './commands/index.ts';
export type { FileChange, FileHistoryLimits } from './files/index.ts';
export {
  editFileTool,
  FileHistory,
  listDirectoryTool,
  listFileChangesTool,
  patchTool,
  readFileTool,
  redoFileTool,
  undoFileTool,
  writeFileTool,
} from './files/index.ts';
export type {
  FileLanguage,
  LspAccess,
  LspConfig,
  LspLanguage,
  LspServerConfig,
  LspServerDefinition,
  LspServersOptions,
  LspTimeouts,
  RunningLspServer,
} from './lsp/index.ts';
export {
  defaultLspDiagnosticsTimeoutMs,
  defaultLspIdleTimeoutMs,
  defaultLspRequestTimeoutMs,
  defaultLspStartTimeoutMs,
  LspServers,
  languageOf,
  lspDefinitionTool,
  lspDiagnosticsTool,
  lspHoverTool,
  lspLanguages,
  lspReferencesTool,
  lspTimeouts,
  mergeLspConfig,
  serverDefinition,
  supportedExtensions,
} from './lsp/index.ts';
export type { AccessMode, PathGuardOptions } from './path-guard.ts';
export { createPathGuard, PathGuard } from './path-guard.ts';
export { questionSchema, questionTool } from './question.ts';
export type { ModelTool, ToolFilter } from './registry.ts';
export { ToolRegistry } from './registry.ts';
export { saveMemoryTool } from './save-memory.ts';
export type { WalkEntry, WalkOptions } from './search/index.ts';
export {
  fuzzyScore,
  globTool,
  grepTool,
  IgnoreRules,
  loadIgnoreRules,
  searchFilesTool,
  walkFiles,
} from './search/index.ts';
export type { Todo } from './todo.ts';
export { TodoList, todoReadTool, todoWriteTool } from './todo.ts';
export type {
  EditorFiles,
  Tool,
  ToolAuditRecord,
  ToolContext,
  ToolRun,
  ToolTraits,
  ToolWait,
} from './tool.ts';
export { defineTool, unknownTraits } from './tool.ts';
export type {
  HostPolicyWording,
  HostRules,
  HttpGetOptions,
  HttpGetResponse,
  WebConfig,
  WebSettings,
} from './web/index.ts';
export { HostPolicy, httpGet, parseWebUrl, webfetchTool, websearchTool } from './web/index.ts';
