// Command-line coding agents as workbench runners: one adapter per agent on shared pieces (process runner,
// JSON-lines reader, private session homes). See README.md beside this file.
export type { AgentAdapter, AgentContext, AgentEventMapper, AgentInvocation } from './agent.ts';
export { claudeCodeAdapter, withImages } from './claude-code.ts';
export { ClaudeEventMapper, claudeToolKindOf } from './claude-events.ts';
export { CliRunner, type CliRunnerOptions, defaultTimeoutMs, timeoutOf } from './cli-runner.ts';
export { codexAdapter, codexConfigOf } from './codex.ts';
export { CodexEventMapper } from './codex-events.ts';
export { cliAdapters, createCliRunners } from './create-cli-runners.ts';
export { cursorAdapter } from './cursor.ts';
export { CursorEventMapper } from './cursor-events.ts';
export { geminiAdapter, geminiSettingsOf } from './gemini.ts';
export { GeminiEventMapper } from './gemini-events.ts';
export { parseJsonLine } from './json-lines.ts';
export { opencodeAdapter, opencodeConfigOf, promptArgumentOf } from './opencode.ts';
export { OpencodeEventMapper } from './opencode-events.ts';
export { type ProcessResult, type ProcessSpec, runProcess } from './process-runner.ts';
export { SessionHomes } from './session-homes.ts';
