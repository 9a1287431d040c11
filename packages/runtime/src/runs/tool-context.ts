import type { RuntimeConfig, RuntimeEnv } from '../config/index.ts';
import { ProjectMemory } from '../memory/index.ts';
import { createSandbox } from '../sandbox/index.ts';
import {
  createCommandPolicy,
  createPathGuard,
  type EditorFiles,
  type FileHistory,
  type LspServers,
  type TodoList,
  type ToolAuditRecord,
  type ToolContext,
  type ToolRun,
  type UnconfinedCommands,
} from '../tools/index.ts';

export interface ToolContextOptions {
  /** The directory tools are confined to. */
  workdir: string;
  /** The configuration that applies there: `security` and `sandbox`. */
  config: RuntimeConfig;
  /** Roots beyond the configured `security.allowed_roots` (a run request's own `allowed_roots`). */
  extraRoots?: readonly string[] | undefined;
  /** Where tool calls are recorded in the audit log. */
  audit: (record: ToolAuditRecord) => Promise<void>;
  /** The file history undo_file and redo_file work on. */
  history: FileHistory;
  /** The todo list of a run; a direct tool call has none. */
  todos?: TodoList | undefined;
  /** The user's runtime directory, where the project's memory is kept. */
  runtimeDir?: string | undefined;
  /** The environment as the runtime read it: websearch's API key. */
  env?: RuntimeEnv | undefined;
  /** The runtime's language servers (lsp_* tools), used with config `lsp`. */
  lsp?: LspServers | undefined;
  /**
   * What happens to commands not known to only read when no sandbox backend is found and the config did
   * not turn the sandbox off (RuntimeOptions.unconfinedCommands). Unset (direct tool calls, the caller's
   * own): they run.
   */
  unconfinedCommands?: UnconfinedCommands | undefined;
  /** More folders the read boundary hides from commands (RuntimeOptions.hiddenPaths). */
  hiddenPaths?: readonly string[] | undefined;
  /** An editor's view of the files (RuntimeOptions.editorFiles). */
  editorFiles?: EditorFiles | undefined;
  /** Variables every command gets on top of its minimal environment (RuntimeOptions.commandEnv). */
  commandEnv?: Readonly<Record<string, string>> | undefined;
  /** The run whose tool calls these are, and which execution of it (see executionAttempt); none: direct calls. */
  run?: ToolRun | undefined;
}

/**
 * The one place a tool context is made, for a run's tool calls and for a direct tool call alike, so both
 * are confined the same way: path guard, command policy, sandbox and web settings from the configuration.
 * The confinement is built once (the path guard resolves real paths); the returned function gives the
 * context for each cancellation signal.
 */
export async function createToolContext(
  options: ToolContextOptions,
): Promise<(signal: AbortSignal) => ToolContext> {
  const { workdir, config, audit, history, todos } = options;
  const guard = await createPathGuard({
    workdir,
    allowedRoots: [...(config.security?.allowed_roots ?? []), ...(options.extraRoots ?? [])],
    strictReadBoundary: config.security?.strict_read_boundary ?? true,
  });
  const commands = createCommandPolicy({
    allowedCommands: config.security?.allowed_commands,
    blockedCommands: config.security?.blocked_commands,
    envAllow: config.security?.env_allow,
  });
  // The same switch as the file tools': commands cannot read the home, WORKBENCH_HOME or the runtime's files.
  const sandbox = createSandbox(config.sandbox, {
    strictReadBoundary: config.security?.strict_read_boundary ?? true,
    hiddenPaths: [options.runtimeDir, options.env?.home, ...(options.hiddenPaths ?? [])],
  });
  // No backend, and the user did not say "unconfined" on purpose: only commands that just read run freely.
  const unconfinedCommands =
    sandbox === undefined && config.sandbox?.enabled !== false ? options.unconfinedCommands : undefined;
  const memory = options.runtimeDir ? new ProjectMemory(options.runtimeDir, workdir) : undefined;
  const web = { config: config.web, braveSearchApiKey: options.env?.braveSearchApiKey };
  return (signal) => ({
    workdir,
    guard,
    signal,
    audit,
    commands,
    sandbox,
    unconfinedCommands,
    ...(options.editorFiles ? { editorFiles: options.editorFiles } : {}),
    ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
    history,
    web,
    ...(todos ? { todos } : {}),
    ...(memory ? { memory } : {}),
    ...(options.lsp ? { lsp: { servers: options.lsp, config: config.lsp } } : {}),
    ...(options.run ? { run: options.run } : {}),
  });
}
