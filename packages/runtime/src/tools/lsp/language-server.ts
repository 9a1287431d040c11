import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver-protocol/node';
import { ToolError } from '../../errors/index.ts';
import type { LspTimeouts } from './lsp-config.ts';
import { type DocumentText, OpenDocuments } from './open-documents.ts';
import { type Publication, PublishedDiagnostics } from './published-diagnostics.ts';
import type { LspServerDefinition } from './server-definitions.ts';
import { requestFailure, serverTitle, startFailure } from './server-failures.ts';
import { clientCapabilities } from './server-handshake.ts';
import { ServerProcess } from './server-process.ts';

// How long a polite shutdown may take before the process is terminated, then killed.
const shutdownGraceMs = 2_000;
// A server that failed to start has no session worth a long goodbye.
const failedStartGraceMs = 500;
// The fence is answered at once by any server (an unknown method); this only guards a broken one.
const fenceTimeoutMs = 5_000;
const fenceTimedOut = new Error('The server did not answer the fence.');

/**
 * One running language server for one workspace: the LSP session over its process (ServerProcess), the
 * documents open in it and the diagnostics it publishes. Every wait on it is bounded (timeouts, the
 * caller's signal, the process's exit), and a failure is a ToolError that names the server and says why.
 */
export class LanguageServer {
  readonly definition: LspServerDefinition;
  readonly workdir: string;
  readonly timeouts: LspTimeouts;
  readonly diagnostics = new PublishedDiagnostics();
  readonly documents: OpenDocuments;
  readonly #process: ServerProcess;
  /** How many syncs sent the server something: a document's diagnostics are fresh as of one of these. */
  #changes = 0;
  /** Per document, as of which change its diagnostics were last asked for, and where that wait starts. */
  readonly #asked = new Map<string, { changes: number; mark: number; sentAt: number }>();
  /** Whether the server says which version its diagnostics are for; unknown until it first publishes. */
  #versioned: boolean | undefined;
  #closing: Promise<void> | undefined;

  private constructor(
    definition: LspServerDefinition,
    workdir: string,
    timeouts: LspTimeouts,
    baseEnv: NodeJS.ProcessEnv,
  ) {
    this.definition = definition;
    this.workdir = workdir;
    this.timeouts = timeouts;
    this.#process = new ServerProcess(definition, workdir, baseEnv, (params) => {
      if (typeof params.version === 'number') this.#versioned = true;
      else this.#versioned ??= false;
      this.diagnostics.record(params);
    });
    this.documents = new OpenDocuments((method, params) => {
      this.#process.notify(method, params);
    });
  }

  /**
   * Starts the server in `workdir` and completes LSP's `initialize` handshake within the start timeout,
   * or until `abandon` aborts (the runtime is closing). On failure the process is stopped.
   */
  static async start(
    definition: LspServerDefinition,
    workdir: string,
    timeouts: LspTimeouts,
    baseEnv: NodeJS.ProcessEnv,
    abandon: AbortSignal,
  ): Promise<LanguageServer> {
    const server = new LanguageServer(definition, workdir, timeouts, baseEnv);
    try {
      await server.#initialize(abandon);
      return server;
    } catch (error) {
      await server.shutdown(failedStartGraceMs);
      throw error;
    }
  }

  /** True once the process has exited (or never started). */
  get exited(): boolean {
    return this.#process.exited;
  }

  /** The process id, while it runs. */
  get pid(): number | undefined {
    return this.#process.pid;
  }

  /**
   * Brings the server's documents up to date with the disk before a query on `target`. With `fresh` (for
   * diagnostics), also makes sure the server publishes the target's diagnostics for the current state of
   * every document, and that what it publishes from then on is not left over from an earlier state.
   *
   * A server that gives versions with its diagnostics (pyright) only needs the target sent again when
   * another file changed. One that does not (typescript-language-server) may still be publishing results
   * it computed for the earlier text: a request it must forward to its checker (hover) flushes those,
   * then the target is sent again unchanged under a new version, which (with eagerClear) drops any pending
   * leftover and starts a new check whose results are published whatever they are. A fence then marks
   * where the publications for the current state begin.
   */
  async prepare(target: DocumentText, fresh: boolean, signal: AbortSignal): Promise<void> {
    const sync = await this.documents.sync(target);
    if (sync.any) this.#changes += 1;
    if (!fresh || this.#asked.get(target.uri)?.changes === this.#changes) return;
    const sentAt = Date.now();
    if (!sync.opened) {
      if (this.#versioned !== true) {
        await this.#flush(target.uri, signal);
        this.documents.touch(target.uri);
      } else if (!sync.target) {
        this.documents.touch(target.uri);
      }
    }
    await this.#fence(signal);
    this.#asked.set(target.uri, { changes: this.#changes, mark: this.diagnostics.mark, sentAt });
  }

  /** The diagnostics published for the text `prepare` sent, or undefined when none came in time. */
  diagnosticsOf(uri: string, signal: AbortSignal): Promise<Publication | undefined> {
    const asked = this.#asked.get(uri);
    return this.diagnostics.forText({
      uri,
      version: this.documents.version(uri) ?? 0,
      after: asked?.mark ?? 0,
      sentAt: asked?.sentAt ?? Date.now(),
      timeoutMs: this.timeouts.diagnosticsMs,
      signal,
      stopped: this.#process.stopped,
    });
  }

  /** Sends a request; a timeout cancels it at the server too. */
  async request<T>(method: string, params: unknown, signal: AbortSignal): Promise<T> {
    const tokens = new CancellationTokenSource();
    try {
      return await this.#process.bounded(this.#process.send<T>(method, params, tokens.token), {
        signal,
        what: `The ${this.definition.name} request ${method}`,
        timeout: {
          ms: this.timeouts.requestMs,
          error: () =>
            new ToolError(
              `${serverTitle(this.definition)} did not answer ${method} within ${this.timeouts.requestMs} ms ` +
                '(config lsp.request_timeout_ms). It may still be loading the project: try again shortly.',
              { server: this.definition.name, method },
            ),
        },
      });
    } catch (error) {
      tokens.cancel();
      throw error instanceof ResponseError ? requestFailure(this.definition, method, error) : error;
    } finally {
      tokens.dispose();
    }
  }

  /**
   * Stops the server: LSP `shutdown` and `exit`, then SIGTERM and SIGKILL for one that does not go.
   * Calling it again waits for the same stop.
   */
  shutdown(graceMs = shutdownGraceMs): Promise<void> {
    this.#closing ??= this.#process.stop(graceMs);
    return this.#closing;
  }

  async #initialize(abandon: AbortSignal): Promise<void> {
    const root = pathToFileURL(this.workdir).href;
    const initialize = this.#process.send('initialize', {
      processId: process.pid,
      clientInfo: { name: 'keel', version: '0.1.0' },
      rootUri: root,
      rootPath: this.workdir,
      workspaceFolders: [{ uri: root, name: basename(this.workdir) }],
      capabilities: clientCapabilities,
      initializationOptions: this.definition.initializationOptions,
    });
    const limit = this.timeouts.startMs;
    try {
      await this.#process.bounded(initialize, {
        signal: abandon,
        what: `Starting ${this.definition.name}`,
        timeout: {
          ms: limit,
          error: () =>
            new ToolError(
              `${serverTitle(this.definition)} did not finish starting within ${limit} ms (config lsp.start_timeout_ms).${this.#process.lastWords()}`,
              { server: this.definition.name },
            ),
        },
      });
    } catch (error) {
      throw error instanceof ResponseError
        ? startFailure(this.definition, error.message, this.#process.lastWords())
        : error;
    }
    this.#process.notify('initialized', {});
    if (Object.keys(this.definition.settings).length > 0) {
      this.#process.notify('workspace/didChangeConfiguration', { settings: this.definition.settings });
    }
  }

  /**
   * Waits until the server has read everything sent so far: servers handle messages in order, and a
   * request for an unknown method is answered (with an error) as soon as it is read. Publications that
   * arrive after the answer were made after the changes (a server may clear a changed file's diagnostics
   * at once; that publication comes before the answer).
   */
  async #fence(signal: AbortSignal): Promise<void> {
    try {
      await this.#process.bounded(this.#process.send('keel/fence', {}), {
        signal,
        what: 'Syncing the documents',
        timeout: { ms: fenceTimeoutMs, error: () => fenceTimedOut },
      });
    } catch (error) {
      // The expected answer is an error (no such method); a silent server is waited for no longer.
      if (!(error instanceof ResponseError) && error !== fenceTimedOut) throw error;
    }
  }

  /**
   * A round trip through the server's checker (a hover at the start of the file): events it produced for
   * earlier text reach the server before the answer does. Its answer and failures do not matter.
   */
  async #flush(uri: string, signal: AbortSignal): Promise<void> {
    try {
      await this.request(
        'textDocument/hover',
        { textDocument: { uri }, position: { line: 0, character: 0 } },
        signal,
      );
    } catch (error) {
      if (this.#process.exited || signal.aborted) throw error;
    }
  }
}
