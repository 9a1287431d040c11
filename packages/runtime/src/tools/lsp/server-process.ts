import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import {
  type CancellationToken,
  createMessageConnection,
  type MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { ToolError } from '../../errors/index.ts';
import { commandEnvironment } from '../commands/command-env.ts';
import { type Bounds, bounded } from './bounded.ts';
import type { PublishDiagnosticsParams } from './lsp-types.ts';
import type { LspServerDefinition } from './server-definitions.ts';
import { exitFailure, lastWords, serverTitle, spawnFailure } from './server-failures.ts';
import { answerServerRequest } from './server-handshake.ts';

const stderrTailChars = 2_000;

/**
 * A language server's process and the JSON-RPC connection over its stdio: sending requests and
 * notifications, and what the process says on its way out (its exit, its last messages, its stderr).
 * It knows nothing of documents or diagnostics: it hands each publication to `onDiagnostics`.
 */
export class ServerProcess {
  readonly #definition: LspServerDefinition;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #connection: MessageConnection;
  /** Rejects with the reason once the process has exited (or failed to spawn). */
  readonly stopped: Promise<never>;
  #exited = false;
  #stderr = '';
  /** The server's own last error and warning messages (window/logMessage, window/showMessage). */
  #messages: string[] = [];

  constructor(
    definition: LspServerDefinition,
    workdir: string,
    baseEnv: NodeJS.ProcessEnv,
    onDiagnostics: (params: PublishDiagnosticsParams) => void,
  ) {
    this.#definition = definition;
    this.#child = spawn(definition.command, definition.args, {
      cwd: workdir,
      env: { ...commandEnvironment(baseEnv), ...definition.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.stopped = new Promise<never>((_, reject) => {
      this.#child.once('error', (error: NodeJS.ErrnoException) => {
        this.#exited = true;
        reject(spawnFailure(definition, error));
      });
      this.#child.once('exit', (code, signal) => {
        this.#exited = true;
        reject(exitFailure(definition, code, signal, this.lastWords()));
      });
    });
    // Nobody may be waiting when it exits; the rejection is read through the waits that race it.
    this.stopped.catch(() => undefined);
    // Writes to a server that just died fail with EPIPE: its exit is reported instead.
    this.#child.stdin.on('error', () => undefined);
    this.#child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-stderrTailChars);
    });
    this.#connection = createMessageConnection(
      new StreamMessageReader(this.#child.stdout),
      new StreamMessageWriter(this.#child.stdin),
    );
    this.#connection.onError(() => undefined);
    this.#connection.onNotification('textDocument/publishDiagnostics', onDiagnostics);
    const keepMessage = (params: { type?: number; message?: string }) => {
      // Errors (1) and warnings (2) explain a failure; the chatter of info and log lines does not.
      if ((params.type === 1 || params.type === 2) && typeof params.message === 'string') {
        this.#messages = [...this.#messages, params.message].slice(-5);
      }
    };
    this.#connection.onNotification('window/logMessage', keepMessage);
    this.#connection.onNotification('window/showMessage', keepMessage);
    this.#connection.onRequest((method, params) =>
      answerServerRequest(method, params, definition.settings, workdir),
    );
    this.#connection.listen();
  }

  /** True once the process has exited (or never started). */
  get exited(): boolean {
    return this.#exited;
  }

  /** The process id, while it runs. */
  get pid(): number | undefined {
    return this.#exited ? undefined : this.#child.pid;
  }

  /**
   * Sends a request. An answer with an error is a ResponseError; a connection that closed under the
   * request (the process is ending) fails with the reason the process gives by exiting.
   */
  async send<T>(method: string, params: unknown, token?: CancellationToken): Promise<T> {
    try {
      // Only what is given: an undefined argument would be sent as a parameter.
      const args = [...(params === undefined ? [] : [params]), ...(token === undefined ? [] : [token])];
      return await this.#connection.sendRequest<T>(method, ...args);
    } catch (error) {
      if (error instanceof ResponseError) throw error;
      const lost = new ToolError(
        `${serverTitle(this.#definition)} closed the connection: ${(error as Error).message}`,
        { server: this.#definition.name },
      );
      throw await bounded(this.stopped, { what: 'exit', timeout: { ms: 1_000, error: () => lost } }).catch(
        (reason: unknown) => reason,
      );
    }
  }

  /**
   * Sends a notification. A server that has gone cannot take it: its exit is what callers hear about
   * (through the waits that race it), so the connection's own complaint, thrown or rejected, is dropped.
   */
  notify(method: string, params: unknown): void {
    if (this.#exited) return;
    try {
      void this.#connection.sendNotification(method, params).catch(() => undefined);
    } catch {
      // Closed or disposed: see above.
    }
  }

  /** Waits for `work` within `bounds`, and fails at once with the exit's reason if the process exits. */
  bounded<T>(work: Promise<T>, bounds: Omit<Bounds, 'stopped'>): Promise<T> {
    return bounded(work, { ...bounds, stopped: this.stopped });
  }

  /** The server's last error and warning messages and the end of its stderr, for a failure message. */
  lastWords(): string {
    return lastWords(this.#messages, this.#stderr);
  }

  /**
   * Stops the process: LSP `shutdown` and `exit`, then SIGTERM and SIGKILL for one that does not go,
   * each given `graceMs`; then closes the connection.
   */
  async stop(graceMs: number): Promise<void> {
    const exited = this.stopped.catch(() => undefined);
    const within = (ms: number) =>
      Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())]);
    if (!this.#exited) {
      try {
        await this.bounded(this.send('shutdown', undefined), {
          timeout: { ms: graceMs, error: () => new Error('The server did not shut down in time.') },
          what: 'Shutting down',
        });
        this.notify('exit', undefined);
      } catch {
        // A server that cannot shut down politely is stopped below.
      }
      this.#child.stdin.end();
      if (!(await within(graceMs))) {
        this.#child.kill('SIGTERM');
        if (!(await within(graceMs))) {
          this.#child.kill('SIGKILL');
          await within(graceMs);
        }
      }
    }
    this.#connection.dispose();
  }
}
