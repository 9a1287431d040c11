import { CancelledError, ToolError } from '../../errors/index.ts';
import { bounded } from './bounded.ts';
import type { LanguageServer } from './language-server.ts';
import type { LspLanguage } from './languages.ts';
import { loadLanguageServer } from './load-client.ts';
import { type LspConfig, lspTimeouts, mergeLspConfig } from './lsp-config.ts';
import { definitionKey, serverDefinition } from './server-definitions.ts';

export interface LspServersOptions {
  /** The environment servers inherit (without the runtime's secrets); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Over each workdir's config `lsp` (an embedder's settings: RuntimeOptions.lsp). */
  config?: LspConfig;
}

/** A running server, as `running()` lists it. */
export interface RunningLspServer {
  workdir: string;
  language: LspLanguage;
  name: string;
  pid: number | undefined;
}

interface Entry {
  workdir: string;
  language: LspLanguage;
  definitionKey: string;
  starting: Promise<LanguageServer>;
  /** Queries under way: an entry in use is never stopped for idleness. */
  busy: number;
  idleMs: number;
  idleTimer?: NodeJS.Timeout | undefined;
}

/**
 * The language servers of one runtime: one per workdir and language, started on the first query and
 * reused by later ones, stopped after `lsp.idle_timeout_ms` unused and by `close()`. A server that exited
 * is replaced on the next query, a failed start is not remembered, and a changed configuration (another
 * command, say) starts a new server in place of the old.
 *
 * @example
 * const servers = new LspServers();
 * const answer = await servers.use(workdir, 'typescript', config.lsp, signal, (server) => server.request(…));
 * await servers.close();
 */
export class LspServers {
  readonly #env: NodeJS.ProcessEnv;
  readonly #config: LspConfig | undefined;
  readonly #entries = new Map<string, Entry>();
  /** Servers being stopped (replaced, idle): `close()` waits for them too. */
  readonly #stopping = new Set<Promise<void>>();
  /** Aborted by `close()`: starts under way give up at once. */
  readonly #closing = new AbortController();

  constructor(options: LspServersOptions = {}) {
    this.#env = options.env ?? process.env;
    this.#config = options.config;
  }

  /**
   * Runs `work` with the server for `language` in `workdir` (started if need be) under `config` (the
   * workdir's config `lsp`). `signal` stops this caller's wait for a start, never the start itself.
   */
  async use<T>(
    workdir: string,
    language: LspLanguage,
    config: LspConfig | undefined,
    signal: AbortSignal,
    work: (server: LanguageServer) => Promise<T>,
  ): Promise<T> {
    if (this.#closing.signal.aborted) {
      throw new ToolError('The language servers are not available: the runtime is closed.', { language });
    }
    if (signal.aborted) throw new CancelledError(`The ${language} language-server query was cancelled.`);
    const merged = mergeLspConfig(config, this.#config);
    const definition = serverDefinition(language, merged);
    if (definition.problem !== undefined) {
      throw new ToolError(definition.problem, { server: definition.name, language });
    }
    const key = JSON.stringify([workdir, language]);
    let entry = this.#entries.get(key);
    if (entry !== undefined && entry.definitionKey !== definitionKey(definition)) {
      void this.#stop(key, entry);
      entry = undefined;
    }
    if (entry !== undefined) {
      const current = entry;
      const server = await current.starting.catch(() => undefined);
      if (server?.exited) void this.#stop(key, current);
      if (this.#entries.get(key) !== current) entry = undefined;
    }
    if (entry === undefined) {
      const timeouts = lspTimeouts(merged);
      const starting = loadLanguageServer().then((LanguageServer) =>
        LanguageServer.start(definition, workdir, timeouts, this.#env, this.#closing.signal),
      );
      entry = {
        workdir,
        language,
        definitionKey: definitionKey(definition),
        starting,
        busy: 0,
        idleMs: timeouts.idleMs,
      };
      this.#entries.set(key, entry);
      const started = entry;
      // A failed start is forgotten, so a fixed configuration or installation works on the next query.
      starting.catch(() => {
        if (this.#entries.get(key) === started) this.#entries.delete(key);
      });
    }
    entry.busy += 1;
    clearTimeout(entry.idleTimer);
    try {
      // The start has its own time limit; this only lets a cancelled caller leave.
      const server = await bounded(entry.starting, {
        signal,
        what: `Starting the ${definition.name} language server`,
      });
      return await work(server);
    } finally {
      entry.busy -= 1;
      if (entry.busy === 0 && this.#entries.get(key) === entry) this.#armIdleTimer(key, entry);
    }
  }

  /** The servers running now (tests and status displays). */
  async running(): Promise<RunningLspServer[]> {
    const servers = await Promise.all(
      [...this.#entries.values()].map(async (entry) => {
        const server = await entry.starting.catch(() => undefined);
        if (server === undefined || server.exited) return undefined;
        return {
          workdir: entry.workdir,
          language: entry.language,
          name: server.definition.name,
          pid: server.pid,
        };
      }),
    );
    return servers.filter((server) => server !== undefined);
  }

  /** Stops every server; later queries fail. Calling it again does nothing more. */
  async close(): Promise<void> {
    this.#closing.abort();
    const entries = [...this.#entries.entries()];
    await Promise.all(entries.map(([key, entry]) => this.#stop(key, entry)));
    await Promise.all([...this.#stopping]);
  }

  #armIdleTimer(key: string, entry: Entry): void {
    entry.idleTimer = setTimeout(() => {
      if (entry.busy === 0) void this.#stop(key, entry);
    }, entry.idleMs);
    // An idle server must not keep the process alive on its own account.
    entry.idleTimer.unref();
  }

  /** Forgets the entry and stops its server (once it has started, if it is still starting). */
  #stop(key: string, entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
    const stopping = entry.starting.then((server) => server.shutdown()).catch(() => undefined);
    this.#stopping.add(stopping);
    void stopping.finally(() => this.#stopping.delete(stopping));
    return stopping;
  }
}
