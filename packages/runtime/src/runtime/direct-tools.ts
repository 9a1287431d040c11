import { loadConfig, type ProjectTrust, type RuntimeEnv } from '../config/index.ts';
import { KeelError, ToolError } from '../errors/index.ts';
import { createToolContext, toolAuditor } from '../runs/index.ts';
import type { RunStore } from '../store/index.ts';
import { createCodingTools, FileHistory, type LspServers, type ToolRegistry } from '../tools/index.ts';
import { normaliseWorkdir } from './workdir.ts';

/** How the embedder confines direct calls (RuntimeOptions of the same names). */
interface Confinement {
  unconfinedCommands?: 'refuse';
  hiddenPaths?: readonly string[];
  commandEnv?: Readonly<Record<string, string>>;
}

/**
 * Tool calls outside any run (`Runtime.callTool`, the web API's `POST /tool`). File changes are kept per
 * workdir for the runtime's life, so undo_file can undo an earlier call's write.
 */
export class DirectTools {
  readonly #runtimeDir: string;
  /** RuntimeOptions.trustProjectConfig. */
  readonly #trust: ProjectTrust | undefined;
  readonly #tools: ToolRegistry | undefined;
  readonly #store: () => Promise<RunStore>;
  readonly #env: RuntimeEnv | undefined;
  readonly #lsp: LspServers | undefined;
  readonly #histories = new Map<string, FileHistory>();
  readonly #confinement: Confinement;

  /**
   * `tools` replaces the built-in coding tools, as RuntimeOptions.tools does for runs; `env` is the
   * environment the runtime read (websearch's API key); `lsp` the runtime's language servers.
   */
  constructor(
    runtimeDir: string,
    tools: ToolRegistry | undefined,
    store: () => Promise<RunStore>,
    env?: RuntimeEnv,
    lsp?: LspServers,
    trust?: ProjectTrust,
    confinement: Confinement = {},
  ) {
    this.#confinement = confinement;
    this.#trust = trust;
    this.#runtimeDir = runtimeDir;
    this.#tools = tools;
    this.#store = store;
    this.#env = env;
    this.#lsp = lsp;
  }

  /** Runs one tool confined to `workdir`, under its configured command policy and sandbox. */
  async call(name: string, params: unknown, workdir?: string): Promise<string> {
    const root = await normaliseWorkdir(workdir);
    const config = loadConfig(this.#runtimeDir, root, this.#trust);
    const tools = this.#tools ?? createCodingTools();
    let history = this.#histories.get(root);
    if (history === undefined) {
      history = new FileHistory();
      this.#histories.set(root, history);
    }
    const contextFor = await createToolContext({
      workdir: root,
      config,
      audit: toolAuditor(await this.#store(), { id: null, session_id: null, workdir: root }),
      history,
      runtimeDir: this.#runtimeDir,
      env: this.#env,
      lsp: this.#lsp,
      // A direct call is the caller's own: its commands run, unless the embedder asked that commands a
      // missing sandbox cannot confine be refused (the workbench, running a repository's checks).
      ...this.#confinement,
    });
    try {
      return await tools.execute(name, params ?? {}, contextFor(new AbortController().signal));
    } catch (error) {
      if (KeelError.is(error)) throw error;
      throw new ToolError(
        `Tool '${name}' failed: ${(error as Error).message}`,
        { tool: name },
        { cause: error },
      );
    }
  }
}
