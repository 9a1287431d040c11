import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CancelledError, type KeelError, TimeoutError, ToolError } from '../errors/index.ts';
import { shortReason } from './reason.ts';
import { displayUrl, type McpServerDefinition } from './server-definition.ts';

/**
 * Why connecting to a server failed, as an error the model can act on: it names the server, says what
 * went wrong in one line, and adds the end of what a stdio server wrote to stderr before it died.
 */
export function connectFailure(definition: McpServerDefinition, error: unknown, stderr: string): KeelError {
  const details = { server: definition.name, transport: definition.transport };
  const server = `MCP server '${definition.name}'`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (definition.transport === 'stdio' && code === 'ENOENT') {
    return new ToolError(
      `${server} could not start: the command '${definition.command}' was not found. ` +
        'Check its command in mcp.servers and that it is installed and on PATH.',
      details,
      { cause: error },
    );
  }
  if (definition.transport === 'stdio' && code === 'EACCES') {
    return new ToolError(`${server} could not start: '${definition.command}' is not executable.`, details, {
      cause: error,
    });
  }
  if (isMcpError(error, ErrorCode.RequestTimeout)) {
    return new TimeoutError(
      `${server} did not answer within ${definition.connectTimeoutMs} ms of connecting (its ` +
        `connect_timeout_ms), so it was given up.${stderrNote(stderr)}`,
      { ...details, timeout_ms: definition.connectTimeoutMs },
    );
  }
  if (isMcpError(error, ErrorCode.ConnectionClosed)) {
    const what = definition.transport === 'stdio' ? 'exited' : 'closed the connection';
    return new ToolError(`${server} ${what} before it finished connecting.${stderrNote(stderr)}`, details, {
      cause: error,
    });
  }
  const where = definition.transport === 'stdio' ? '' : ` at ${displayUrl(definition.url)}`;
  return new ToolError(
    `${server}${where} could not be connected to: ${reasonOf(error)}${stderrNote(stderr)}${sseHint(error)}`,
    details,
    { cause: error },
  );
}

/** Why a request to a connected server (tools/list, tools/call) failed. */
export function requestFailure(
  definition: McpServerDefinition,
  request: string,
  error: unknown,
  options: { cancelled: boolean; timeoutMs: number; stderr: string },
): KeelError {
  const details = { server: definition.name, request };
  const server = `MCP server '${definition.name}'`;
  if (options.cancelled) return new CancelledError(`The ${request} to ${server} was cancelled.`);
  if (isMcpError(error, ErrorCode.RequestTimeout)) {
    return new TimeoutError(
      `${server} did not answer ${request} within ${options.timeoutMs} ms, so the request was cancelled. ` +
        'Try a smaller task, or raise call_timeout_ms for this server in mcp.servers.',
      { ...details, timeout_ms: options.timeoutMs },
    );
  }
  if (isMcpError(error, ErrorCode.ConnectionClosed)) {
    const what =
      definition.transport === 'stdio'
        ? 'exited; the next call starts it again'
        : 'closed the connection; the next call connects again';
    return new ToolError(
      `${server} ${what} (it happened during ${request}).${stderrNote(options.stderr)}`,
      details,
      {
        cause: error,
      },
    );
  }
  return new ToolError(`${server} failed ${request}: ${reasonOf(error)}`, details, { cause: error });
}

/** A short, single-line reason, with the HTTP status of a streamable-HTTP or SSE failure. */
export function reasonOf(error: unknown): string {
  if (error instanceof StreamableHTTPError && error.code !== undefined) {
    return shortReason(error, `HTTP ${error.code}: `);
  }
  if (error instanceof SseError) return shortReason(sseReason(error));
  return shortReason(error);
}

/**
 * EventSource's reason in plain words: it says "SSE error: Non-200 status code (404)", "SSE error: TypeError:
 * fetch failed: connect ECONNREFUSED 127.0.0.1:3001", or "SSE error: undefined" for a stream that just ended.
 */
function sseReason(error: SseError): string {
  const text = error.message.replace(/^SSE error: (?:TypeError: )?/, '');
  if (text.startsWith('Non-200 status code')) return `HTTP ${error.code} for the event stream`;
  if (text === 'undefined') return 'the server ended the event stream';
  return text;
}

/** For an sse server whose URL answered, but not with an event stream: what to check. */
function sseHint(error: unknown): string {
  if (!(error instanceof SseError)) return '';
  if (error.code === 401 || error.code === 403) return '. Check the token or other headers given for it.';
  // 200 here means a page that is not an event stream: a web page, or a streamable-HTTP endpoint.
  if (error.code !== 200 && error.code !== 404 && error.code !== 405) return '';
  return (
    ". Check that url is the server's event stream (often ending in /sse); a server that speaks " +
    'streamable HTTP needs transport http.'
  );
}

function isMcpError(error: unknown, code: ErrorCode): boolean {
  return error instanceof McpError && error.code === code;
}

function stderrNote(stderr: string): string {
  const text = stderr.trim();
  return text === '' ? '' : ` Its stderr ended with:\n${text}`;
}
