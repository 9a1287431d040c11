import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidParamsError, ToolError } from '../errors/index.ts';
import { untilAborted, withRequestSignal } from './abortable.ts';
import { connectFailure, requestFailure } from './failures.ts';
import type { McpServerDefinition } from './server-definition.ts';
import { createServerTransport, type ServerTransport } from './server-transport.ts';

/** What the client says it is in `initialize`. */
const clientInfo = { name: 'keel', version: '0.1.0' };

/**
 * One live session with one MCP server: lists its tools (kept until the server says they changed) and
 * calls them, each request bounded by the server's timeouts and the caller's signal.
 */
export class McpConnection {
  readonly definition: McpServerDefinition;
  readonly #client: Client;
  readonly #server: ServerTransport;
  #tools: Promise<McpTool[]> | undefined;
  #closed = false;

  private constructor(definition: McpServerDefinition, client: Client, server: ServerTransport) {
    this.definition = definition;
    this.#client = client;
    this.#server = server;
    client.onclose = () => {
      this.#closed = true;
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#tools = undefined;
    });
  }

  /**
   * Starts (stdio) or reaches (http, sse) the server and completes MCP's `initialize` handshake within its
   * `connect_timeout_ms`, or until `abandon` aborts (the pool is closing). On failure the server's process
   * is stopped and a KeelError names the server.
   */
  static async open(
    definition: McpServerDefinition,
    baseEnv: NodeJS.ProcessEnv,
    abandon: AbortSignal,
  ): Promise<McpConnection> {
    const server = createServerTransport(definition, baseEnv);
    const client = new Client(clientInfo, { capabilities: {} });
    // The request signal reaches `initialize` only, not the transport's start (an sse stream still opening).
    const giveUp = () => server.kill();
    abandon.addEventListener('abort', giveUp, { once: true });
    try {
      await withRequestSignal(abandon, (signal) =>
        client.connect(server.transport, { timeout: definition.connectTimeoutMs, signal }),
      );
    } catch (error) {
      const failure = abandon.aborted
        ? new ToolError(`MCP server '${definition.name}' is not available: the runtime is closed.`, {
            server: definition.name,
          })
        : connectFailure(definition, error, server.stderr());
      // A server still silent after its timeout, or given up, has no session worth ending politely.
      if (abandon.aborted || failure.code === 'TIMEOUT') server.kill();
      await server.close().catch(() => undefined);
      throw failure;
    } finally {
      abandon.removeEventListener('abort', giveUp);
    }
    return new McpConnection(definition, client, server);
  }

  /** True once the session ended: the server exited, dropped the connection, or `close()` ran. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * The server's tools, every page of them; fetched once and again after a tools/list_changed. The fetch
   * is shared by concurrent callers, so one caller's cancellation only stops its own wait.
   */
  async listTools(signal: AbortSignal): Promise<McpTool[]> {
    if (this.#tools === undefined) {
      const fetching = this.#fetchTools();
      this.#tools = fetching;
      // A failed listing is not kept: the next caller asks the server again.
      fetching.catch(() => {
        if (this.#tools === fetching) this.#tools = undefined;
      });
    }
    return untilAborted(this.#tools, signal, `Listing the tools of MCP server '${this.definition.name}'`);
  }

  /**
   * Calls a tool the server lists; an unknown name is refused with the names it does list. `meta` goes
   * with the request as its `_meta` (see callMeta).
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    meta?: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const tools = await this.listTools(signal);
    if (!tools.some((tool) => tool.name === name)) {
      const names = tools.map((tool) => tool.name);
      throw new InvalidParamsError(
        `MCP server '${this.definition.name}' has no tool '${name}'. Its tools: ${names.join(', ') || 'none'}.`,
        { server: this.definition.name, tool: name, available: names },
      );
    }
    const timeoutMs = this.definition.callTimeoutMs;
    const params = { name, arguments: args, ...(meta ? { _meta: meta } : {}) };
    try {
      return (await withRequestSignal(signal, (requestSignal) =>
        this.#client.callTool(params, CallToolResultSchema, {
          signal: requestSignal,
          timeout: timeoutMs,
        }),
      )) as CallToolResult;
    } catch (error) {
      throw requestFailure(this.definition, `tools/call '${name}'`, error, {
        cancelled: signal.aborted,
        timeoutMs,
        stderr: this.#server.stderr(),
      });
    }
  }

  /** Ends the session; a stdio server's process is stopped (stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#server.close().catch(() => undefined);
  }

  async #fetchTools(): Promise<McpTool[]> {
    // A server without the tools capability has none to list (and may refuse the request).
    if (!this.#client.getServerCapabilities()?.tools) return [];
    const timeoutMs = this.definition.callTimeoutMs;
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.#client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: timeoutMs,
        });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw requestFailure(this.definition, 'tools/list', error, {
        cancelled: false,
        timeoutMs,
        stderr: this.#server.stderr(),
      });
    }
    return tools;
  }
}
