export { createCodingTools } from './coding-tools.ts';
export { commandEnvironment } from './command-env.ts';
export type { Invocation } from './command-invocations.ts';
export { invocationsOf } from './command-invocations.ts';
export type { CommandPolicyOptions, CommandVerdict } from './command-policy.ts';
export { CommandPolicy, createCommandPolicy } from './command-policy.ts';
export type { CommandOutcome, RunCommandOptions } from './command-runner.ts';
export { runCommand } from './command-runner.ts';
export { defaultAllowedCommands } from './default-allowed-commands.ts';
export { editFileTool } from './edit-file.ts';
export {
  defaultCommandTimeoutMs,
  execCommandTool,
  maxCommandOutputChars,
  maxCommandTimeoutMs,
} from './exec-command.ts';
export type { FileChange, FileHistoryLimits } from './file-history.ts';
export { FileHistory } from './file-history.ts';
export { listFileChangesTool, redoFileTool, undoFileTool } from './file-history-tools.ts';
export { fuzzyScore } from './fuzzy-score.ts';
export { globTool } from './glob.ts';
export { grepTool } from './grep.ts';
export { IgnoreRules, loadIgnoreRules } from './ignore-rules.ts';
export { listDirectoryTool } from './list-directory.ts';
export { patchTool } from './patch.ts';
export type { AccessMode, PathGuardOptions } from './path-guard.ts';
export { createPathGuard, PathGuard } from './path-guard.ts';
export { questionSchema, questionTool } from './question.ts';
export { readFileTool } from './read-file.ts';
export type { ModelTool, ToolFilter } from './registry.ts';
export { ToolRegistry } from './registry.ts';
export { saveMemoryTool } from './save-memory.ts';
export { searchFilesTool } from './search-files.ts';
export type { ShellRedirect, ShellWord, SimpleCommand } from './shell-parser.ts';
export { parseCommandLine, ShellSyntaxError } from './shell-parser.ts';
export type { Todo } from './todo.ts';
export { TodoList, todoReadTool, todoWriteTool } from './todo.ts';
export type { Tool, ToolAuditRecord, ToolContext } from './tool.ts';
export { defineTool } from './tool.ts';
export type { WalkEntry, WalkOptions } from './walk.ts';
export { walkFiles } from './walk.ts';
export { writeFileTool } from './write-file.ts';
