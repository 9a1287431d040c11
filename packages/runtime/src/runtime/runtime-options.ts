import type { ProjectTrust } from '../config/index.ts';
import type { RuntimeEvent } from '../events/index.ts';
import type { McpServerConfig } from '../mcp/index.ts';
import type { RetryPolicy } from '../model/index.ts';
import type { ExecutionOutcome, RecoveredOrphan } from '../runs/index.ts';
import type { BlobStore, Run, RunStore } from '../store/index.ts';
import type { EditorFiles, LspConfig, ToolRegistry, UnconfinedCommands } from '../tools/index.ts';
import type { Workflow } from '../workflow/index.ts';

/** How to build a runtime. Every field is optional. */
export interface RuntimeOptions {
  /** What kind of process this runtime's worker id names (`web` for keel-web): `role:host:pid:random`. Default none. */
  workerRole?: string;
  /** The user's runtime directory, holding the store and global config (default RUNTIME_HOME or ~/.runtime). */
  runtimeDir?: string;
  /**
   * The directory whose configuration picks the store (project `.runtime/config.json` over the global one);
   * default the current directory. Every surface working on the same directory finds the same runs.
   */
  workdir?: string;
  /**
   * Whether a project `.runtime/config.json` may apply its security-relevant keys (its model endpoint,
   * sandbox, security policy, MCP and LSP commands, network and storage settings: the table in the README's
   * "Trusted folders"): `true`, `false` (an embedder running checkouts it does not vouch for), or a decision
   * per project folder, given what the file asks for (`(projectDir, asks) => boolean`: compare `asks.sha256`
   * with a pin you recorded). Default: the global config's approvals (`keel trust`: that very file, asking
   * for exactly what was approved).
   */
  trustProjectConfig?: ProjectTrust;
  /**
   * Whether a trusted project `.runtime/config.json` may choose where runs and artifacts are stored (its
   * `store` and `artifacts` keys). Default true. An embedder that keeps every run of its own in one place,
   * whatever the workspace's config says (the workbench), passes false: then only the global config, or
   * the default SQLite file in `runtimeDir`, chooses.
   */
  storeFromProjectConfig?: boolean;
  /** A store to use instead of the configured one (it is not closed by `close()`). */
  store?: RunStore;
  /** A blob store for artifact payloads instead of the configured one. */
  blobs?: BlobStore;
  /** Default model name, below a request's own. */
  model?: string;
  /** Default chat-completions base URL, below a request's own. */
  modelBaseUrl?: string;
  /** The embedding caller's model key: the lowest-priority source (spec section 2). */
  apiKey?: string;
  enableThinking?: boolean;
  thinkingBudget?: number;
  /** How model calls are retried (default: 4 attempts, 1 s doubling). */
  retry?: Partial<RetryPolicy>;
  /** Tools whose calls need a human's approval, on top of config `security.require_approval`. */
  requireApproval?: string[];
  /**
   * What a run does with a command that is not known to only read when no sandbox backend confines
   * commands (no bubblewrap) and the config does not turn the sandbox off on purpose: `ask` (default) waits
   * for the user's approval, `refuse` refuses it with how to allow it (an embedder where nobody answers).
   * `refuse` applies to direct tool calls (`callTool`) too; without it they are the caller's own and run.
   */
  unconfinedCommands?: UnconfinedCommands;
  /**
   * Folders the sandbox's read boundary hides from commands on top of the home, RUNTIME_HOME,
   * WORKBENCH_HOME (when set in the environment) and the runtime's directory: an embedder's own data.
   */
  hiddenPaths?: string[];
  /**
   * Variables every command this runtime runs gets on top of its minimal environment (and
   * `security.env_allow`), e.g. an activated virtualenv's `VIRTUAL_ENV` and `PATH`: the embedder's choice,
   * never read from a project's files.
   */
  commandEnv?: Readonly<Record<string, string>>;
  /**
   * An editor's view of the files (`keel acp`: the client's unsaved buffers): every file tool reads it and,
   * when it has `writeText`, writes its changes there instead of to disk (tools/files/file-view.ts).
   */
  editorFiles?: EditorFiles;
  /**
   * Seconds an approval or a question waits for a human before it expires, over config
   * `interaction_timeout` (default 0: no limit). The run then goes on without the call or the answer.
   */
  interactionTimeout?: number;
  /** MCP servers on top of config `mcp.servers` (an embedder's own settings); one replaces a configured one of its name. */
  mcpServers?: McpServerConfig[];
  /**
   * Language-server settings over config `lsp` (idle timeout, time limits, `servers.<language>.command`):
   * an embedder's own, e.g. a server command of its choosing.
   */
  lsp?: LspConfig;
  /** How long this worker's claim on a run lasts without renewal (default config `runs.lease_ms` or 15 s). */
  leaseMs?: number;
  /**
   * This runtime executes no run (an API server in front of workers, `keel-web run --queue-only`): `start`
   * leaves every run queued, `drive` claims none, and `run`, `stream` and `follow` follow the run while
   * a worker (`keel worker`, `runtime.work`) executes it.
   */
  queueOnly?: boolean;
  /**
   * At most this many runs execute in this process at once (keel-web's `--max-running`); the rest stay
   * queued, in the order they came, for this process or any worker. A run waiting for a human or paused
   * holds no slot. Default: no bound. `runtime.work` executes one run at a time and takes no slot.
   */
  maxRunning?: number;
  /**
   * Told each run this runtime executed once it has ended (succeeded, failed, cancelled, or paused for an
   * approval), with its final record: a service logs the failures (keel-web's log). A throw is ignored.
   */
  onRunEnded?: (run: Run) => void;
  /** Environment to read instead of process.env. */
  env?: NodeJS.ProcessEnv;
  /** Tools to offer instead of the built-in coding tools. */
  tools?: ToolRegistry;
  fetch?: typeof fetch;
  now?: () => Date;
}

export interface RunOptions {
  /** Cancels the run: the model stream and running tools stop, and a `cancelled` event is emitted. */
  signal?: AbortSignal;
  /** Receives every event of this run, after the runtime's own event manager. */
  onEvent?: (event: RuntimeEvent) => void | Promise<void>;
  /** A workflow to run instead of the plain agent (see `Workflow`); `{{input.prompt}}` is the request's prompt. */
  workflow?: Workflow;
}

export interface DriveOptions {
  signal?: AbortSignal;
  onEvent?: (event: RuntimeEvent, seq: number) => void | Promise<void>;
}

export interface FollowOptions {
  /** Deliver the events after this seq (0: every event; default: only those stored from now on). */
  after?: number;
  /** Cancels the run, wherever it executes; following goes on until the run is final. */
  signal?: AbortSignal;
  /** Each event of the run once, in order, after it is stored. */
  onEvent?: (event: RuntimeEvent, seq: number) => void | Promise<void>;
}

export interface WorkOptions {
  /** Stops taking runs and cancels the run in hand. */
  signal?: AbortSignal;
  /** Stops taking runs; the run in hand goes on to its end or its next wait. */
  stop?: AbortSignal;
  /** Wait between looks at an empty queue (default 250 ms). */
  idleMs?: number;
  /** This worker now holds `run` (the claim is atomic: no other worker has it). */
  onClaim?: (run: Run) => void | Promise<void>;
  /** Each event of the run in hand, after it is stored. */
  onEvent?: (event: RuntimeEvent, seq: number, run: Run) => void | Promise<void>;
  /** Where the run in hand stopped: ended, waiting for a human, paused, or failed. */
  onOutcome?: (outcome: ExecutionOutcome) => void | Promise<void>;
  /** This worker took over a run whose worker died, and queued it again (or failed it: too many). */
  onRecover?: (recovered: RecoveredOrphan) => void | Promise<void>;
  /**
   * Take no queued run: only recover orphaned ones (`onRecover` tells which), for the caller to execute
   * (keel-web's own executor follows each). Default false.
   */
  orphansOnly?: boolean;
  /**
   * The store could not be reached (at start, or lost): the worker tries again in `retryInMs`. Without
   * this, it retries silently. Any other store error (its configuration) stops the worker.
   */
  onStoreUnreachable?: (error: unknown, retryInMs: number) => void | Promise<void>;
  /** The store answers again after being unreachable. */
  onStoreReachable?: () => void | Promise<void>;
}
