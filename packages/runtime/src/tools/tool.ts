import type { z } from 'zod';
import type { ProjectMemory } from '../memory/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import type { CommandPolicy } from './commands/command-policy.ts';
import type { UnconfinedCommands } from './commands/unconfined-commands.ts';
import type { FileHistory } from './files/file-history.ts';
import type { LspAccess } from './lsp/lsp-access.ts';
import type { PathGuard } from './path-guard.ts';
import type { TodoList } from './todo-list.ts';
import type { WebSettings } from './web/web-settings.ts';

/** What every tool receives besides its arguments. Confinement lives here, never inside a tool. */
export interface ToolContext {
  /** Normalised absolute working directory: relative paths resolve against it. */
  readonly workdir: string;
  /** Resolves and checks every path a tool touches. */
  readonly guard: PathGuard;
  /** Aborted when the run is cancelled; long tools must stop promptly. */
  readonly signal: AbortSignal;
  /** Receives every tool execution for the audit log; a failing audit never fails the tool. */
  readonly audit?: (record: ToolAuditRecord) => void | Promise<void>;
  /** Which commands exec_command may run (config `security`); without one, the default policy. */
  readonly commands?: CommandPolicy;
  /** Confines the commands exec_command runs (config `sandbox`); without one they run unconfined. */
  readonly sandbox?: Sandbox | undefined;
  /**
   * Set when no sandbox backend confines commands although the user did not turn the sandbox off: `refuse`
   * refuses commands not known to only read; `ask` runs them, because inside a run exec_command's
   * `approvalReason` had the user approve each first. Unset: commands run as the policy allows.
   */
  readonly unconfinedCommands?: UnconfinedCommands | undefined;
  /** Variables exec_command's commands get on top of their minimal environment (RuntimeOptions.commandEnv). */
  readonly commandEnv?: Readonly<Record<string, string>> | undefined;
  /** Records file changes for undo_file, redo_file and list_file_changes; without one, none are kept. */
  readonly history?: FileHistory;
  /** The run's task list (todo_write, todo_read); without one, a list lives for a single call. */
  readonly todos?: TodoList;
  /** The project's memory (save_memory); without one, save_memory refuses. */
  readonly memory?: ProjectMemory;
  /** Config `web` and the search key (webfetch, websearch); without one, the defaults and no search. */
  readonly web?: WebSettings;
  /** The runtime's language servers and config `lsp` (lsp_* tools); without one, servers live for one call. */
  readonly lsp?: LspAccess;
  /** An editor's view of the files (`keel acp`): when set, every file tool reads and changes files through it. */
  readonly editorFiles?: EditorFiles | undefined;
  /**
   * The run the call belongs to and which execution of it this is (`attempt`: 1, then one more after each
   * recovery or retry, so a call may have run before when it is above 1); absent for a direct tool call.
   * Tools that reach outside pass it on (MCP's `_meta`), so a repeated call can be recognised there.
   */
  readonly run?: ToolRun | undefined;
  /**
   * The model's id of this tool call, the same when a recovered run makes the call again (it comes from
   * the checkpointed model turn); absent outside an agent's tool batch.
   */
  readonly toolCallId?: string | undefined;
}

/** The run a tool call belongs to (ToolContext.run). */
export interface ToolRun {
  readonly id: string;
  /** 1 for the run's first execution; each recovery or retry adds one. */
  readonly attempt: number;
}

/**
 * Files as an editor holds them (the Agent Client Protocol's `fs/read_text_file` and `fs/write_text_file`):
 * the one view of the file tools (files/file-view.ts), so an edit applies to the text the model read. Paths
 * are absolute and already confined by the path guard.
 */
export interface EditorFiles {
  /**
   * The editor's text of the file, unsaved changes included; undefined when the editor answers that there is
   * no such file. Throws when the editor refuses the read: the tool fails, it never reads the disk instead.
   */
  readText(path: string): Promise<string | undefined>;
  /**
   * Writes the file's new text through the editor (creating it if need be), so its buffer and undo follow;
   * throws when the editor refuses. Absent: the editor only reads, and changes go to disk, refused while the
   * editor's text differs from the disk (unsaved changes).
   */
  writeText?(path: string, text: string): Promise<void>;
}

/** One tool execution as the audit log sees it. */
export interface ToolAuditRecord {
  tool_name: string;
  /** The tool's audit event (ToolTraits.audit); absent: `tool_call`. */
  event?: 'file_write' | 'file_edit' | 'command_exec';
  args: unknown;
  result: string;
  success: boolean;
}

/**
 * What a tool does, declared on the tool (as MCP's tool annotations are), so every list that groups tools
 * (specialists' tool sets, audit kinds, approvals by trait, how surfaces show a call) derives from it.
 */
export interface ToolTraits {
  /** How a call is shown: `read`, `edit`, `search`, `execute`, `fetch`, `think`, `agent` or `other`. */
  kind: 'read' | 'edit' | 'search' | 'execute' | 'fetch' | 'think' | 'agent' | 'other';
  /** Changes nothing: no file, no command, nothing outside the run (read-only specialists may use it). */
  readOnly: boolean;
  /** Writes or edits files in the working directory. */
  writesFiles?: boolean;
  /** Runs commands. */
  runsCommands?: boolean;
  /** Reaches the network. */
  network?: boolean;
  /** The spec's audit event of its calls; default `tool_call`. */
  audit?: 'file_write' | 'file_edit' | 'command_exec';
}

/** The traits of a tool that declares none (an embedder's, an MCP server's): it may do anything. */
export const unknownTraits: ToolTraits = { kind: 'other', readOnly: false };

/** A tool: declared once, its JSON schema for the model generated from `schema`. */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly schema: Schema;
  /** What it does; without them it counts as able to do anything (`unknownTraits`). */
  readonly traits?: ToolTraits;
  /** Returns the text the model (and `POST /tool`) sees. Throws a KeelError on failure. */
  execute(ctx: ToolContext, args: z.infer<Schema>): Promise<string>;
  /**
   * For a tool that waits on something outside the run (a sub-agent to finish): what it waits for, or null
   * when it can run now. Inside a run, a wait parks the run before the call (`waiting`, holding no worker);
   * the call runs when the run continues and the wait is over. Direct calls never wait.
   */
  waitsFor?(ctx: ToolContext, args: z.infer<Schema>): Promise<ToolWait | null>;
  /**
   * For a tool whose call needs the user's approval depending on its arguments (a command with no sandbox
   * around it): why, or undefined when it can run. Inside a run the call waits for approval, as calls of
   * `security.require_approval` do; direct calls are the caller's own and never ask. `args` are the model's,
   * not yet validated.
   */
  approvalReason?(ctx: ToolContext, args: Record<string, unknown>): Promise<string | undefined>;
}

/** What a tool waits for (Tool.waitsFor). */
export interface ToolWait {
  /** Recorded on the run's waiting step, e.g. `{ agent_id: 'agt_…' }`. */
  detail: Record<string, unknown>;
  /** Whether the wait is over: asked again once the run is `waiting`, so no wake-up is missed. */
  ready(): Promise<boolean>;
}

/** Declares a tool with its argument type inferred from the schema. */
export function defineTool<Schema extends z.ZodType>(tool: Tool<Schema>): Tool<Schema> {
  return tool;
}
