import { ToolError } from '../errors/index.ts';
import { untilAborted } from './abortable.ts';
import type { McpConnection } from './connection.ts';
import { loadMcpConnection } from './load-sdk.ts';
import { definitionKey, type McpServerDefinition } from './server-definition.ts';

export interface McpClientPoolOptions {
  /** The environment stdio servers inherit (without the runtime's secrets); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The MCP connections of one runtime. A server is connected on first use and the connection is reused
 * by every later run whose definition of it is the same; a connection that died is replaced on the
 * next use, and a failed connect is not remembered, so a fixed server works again without a restart.
 * `close()` ends every session and stops every server process it started.
 *
 * @example
 * const pool = new McpClientPool();
 * const connection = await pool.connection(definition, signal);
 * const tools = await connection.listTools(signal);
 * await pool.close();
 */
export class McpClientPool {
  readonly #env: NodeJS.ProcessEnv;
  readonly #connections = new Map<string, Promise<McpConnection>>();
  /** Aborted by `close()`: connects under way give up at once instead of running to their timeout. */
  readonly #closing = new AbortController();

  constructor(options: McpClientPoolOptions = {}) {
    this.#env = options.env ?? process.env;
  }

  /**
   * The live connection for `definition`, connecting if there is none. Concurrent callers share one
   * connect; `signal` only stops this caller's wait, never a connect others may be waiting for.
   */
  async connection(definition: McpServerDefinition, signal: AbortSignal): Promise<McpConnection> {
    const key = definitionKey(definition);
    const what = `Connecting to MCP server '${definition.name}'`;
    const existing = this.#connections.get(key);
    if (existing !== undefined) {
      // A connect under way that fails fails for all who joined it (a failed one leaves the map at once).
      const connection = await untilAborted(existing, signal, what);
      if (!connection.closed) return connection;
      if (this.#connections.get(key) === existing) this.#connections.delete(key);
    }
    return untilAborted(this.#connect(key, definition), signal, what);
  }

  /** Ends every session; later calls to `connection()` fail. Calling it again does nothing. */
  async close(): Promise<void> {
    this.#closing.abort();
    const pending = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(
      pending.map(async (opening) => {
        const connection = await opening.catch(() => undefined);
        await connection?.close();
      }),
    );
  }

  #connect(key: string, definition: McpServerDefinition): Promise<McpConnection> {
    const current = this.#connections.get(key);
    if (current !== undefined) return current;
    if (this.#closing.signal.aborted) {
      return Promise.reject(
        new ToolError(`MCP server '${definition.name}' is not available: the runtime is closed.`, {
          server: definition.name,
        }),
      );
    }
    const opening = loadMcpConnection().then((connection) =>
      connection.open(definition, this.#env, this.#closing.signal),
    );
    this.#connections.set(key, opening);
    opening.then(
      async (connection) => {
        // close() ran while this connect was under way and did not see it: end it now.
        if (this.#connections.get(key) !== opening) await connection.close();
      },
      () => {
        if (this.#connections.get(key) === opening) this.#connections.delete(key);
      },
    );
    return opening;
  }
}
