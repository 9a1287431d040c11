import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The MCP SDK's client for the older HTTP+SSE transport, with two gaps closed:
 * - its `start()` waits for the server's `endpoint` event without limit, and neither the connect timeout
 *   nor a closing runtime reach it; here it gives up after `startTimeoutMs`, and `close()` ends the wait.
 * - once connected, EventSource answers a broken event stream by reconnecting, which the server takes
 *   for a new session that was never initialized; here the transport closes instead, so the connection
 *   counts as closed and the next use connects afresh.
 */
export class BoundedSseTransport extends SSEClientTransport {
  readonly #startTimeoutMs: number;
  #stopStarting: ((reason: Error) => void) | undefined;

  constructor(url: URL, headers: Record<string, string>, startTimeoutMs: number) {
    super(url, { requestInit: { headers } });
    this.#startTimeoutMs = startTimeoutMs;
  }

  override async start(): Promise<void> {
    const stopped = new Promise<never>((_resolve, reject) => {
      this.#stopStarting = reject;
    });
    const timer = setTimeout(
      () => this.#stopStarting?.(new McpError(ErrorCode.RequestTimeout, 'No endpoint event')),
      this.#startTimeoutMs,
    );
    try {
      await Promise.race([super.start(), stopped]);
    } finally {
      clearTimeout(timer);
      this.#stopStarting = undefined;
    }
    const report = this.onerror;
    this.onerror = (error) => {
      report?.(error);
      if (error instanceof SseError) void this.close();
    };
  }

  override async close(): Promise<void> {
    this.#stopStarting?.(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
    await super.close();
  }
}
