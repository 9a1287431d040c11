import { isAbsolute, resolve } from 'node:path';
import type { RuntimeConfig } from '../config/index.ts';
import { expandVariables } from './expand-variables.ts';

/** One entry of config `mcp.servers`, as the config file holds it. */
export type McpServerConfig = NonNullable<NonNullable<RuntimeConfig['mcp']>['servers']>[number];

/** Time a server may take to start and answer `initialize`, unless its entry says `connect_timeout_ms`. */
export const defaultConnectTimeoutMs = 30_000;
/** Time one tool call may take, unless the server's entry says `call_timeout_ms`. */
export const defaultCallTimeoutMs = 120_000;

// Letters, digits, `_` and `-`: safe in tool arguments, logs and (should they ever be) tool names.
const serverName = /^[A-Za-z0-9_-]{1,64}$/;

interface CommonDefinition {
  name: string;
  connectTimeoutMs: number;
  callTimeoutMs: number;
}

/** A server the runtime starts itself and talks to over its stdin and stdout. */
export interface StdioServerDefinition extends CommonDefinition {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Variables set on top of the runtime's environment without its secrets. */
  env: Record<string, string>;
  /** Where the server runs: the run's working directory. */
  cwd: string;
}

/** A running server reached at a URL. */
interface UrlServerDefinition extends CommonDefinition {
  url: string;
  /** Sent on every request; often a token, so never put in a message. */
  headers: Record<string, string>;
}

/** A running server reached over MCP's streamable HTTP transport. */
export interface HttpServerDefinition extends UrlServerDefinition {
  transport: 'http';
}

/** A running server reached over the older HTTP+SSE transport, which servers predating streamable HTTP speak. */
export interface SseServerDefinition extends UrlServerDefinition {
  transport: 'sse';
}

/** A usable server: everything needed to connect to it, with variables expanded and defaults filled. */
export type McpServerDefinition = StdioServerDefinition | HttpServerDefinition | SseServerDefinition;

/** A configured server whose entry cannot be used; the model is told why when it asks for the server. */
export interface UnusableMcpServer {
  name: string;
  transport: string;
  problem: string;
}

export type McpServerEntry = McpServerDefinition | UnusableMcpServer;

export function isUnusable(entry: McpServerEntry): entry is UnusableMcpServer {
  return 'problem' in entry;
}

/**
 * Turns config `mcp.servers` into server definitions for one run. A bad entry (no command, a bad URL,
 * a duplicate name, an unset `${VAR}`) does not fail the run: it becomes an unusable server whose
 * problem the MCP tools report, so the rest of the run and the other servers still work.
 */
export function resolveMcpServers(
  configured: readonly McpServerConfig[] | undefined,
  context: { workdir: string; env: NodeJS.ProcessEnv },
): McpServerEntry[] {
  const entries: McpServerEntry[] = [];
  const seen = new Set<string>();
  for (const server of configured ?? []) {
    const duplicate = seen.has(server.name);
    seen.add(server.name);
    try {
      if (duplicate) throw new Error(`another server earlier in mcp.servers has the same name`);
      entries.push(resolveOne(server, context));
    } catch (error) {
      entries.push({
        name: server.name,
        transport: server.transport,
        problem: `MCP server '${server.name}' is misconfigured: ${(error as Error).message}.`,
      });
    }
  }
  return entries;
}

function resolveOne(
  server: McpServerConfig,
  context: { workdir: string; env: NodeJS.ProcessEnv },
): McpServerDefinition {
  if (!serverName.test(server.name)) {
    throw new Error('the name must be 1 to 64 letters, digits, "_" or "-"');
  }
  const expand = (text: string, field: string) => expandVariables(text, context.env, field);
  const common = {
    name: server.name,
    connectTimeoutMs: server.connect_timeout_ms ?? defaultConnectTimeoutMs,
    callTimeoutMs: server.call_timeout_ms ?? defaultCallTimeoutMs,
  };
  if (server.transport === 'stdio') {
    if (server.url !== undefined || server.headers !== undefined) {
      throw new Error(
        'url and headers belong to the http and sse transports; a stdio server needs command (and args)',
      );
    }
    const command = expand(server.command ?? '', 'command').trim();
    if (command === '') throw new Error('a stdio server needs a command');
    return {
      transport: 'stdio',
      ...common,
      // A relative path such as ./tools/server.js means the project's file, wherever the runtime started.
      command: command.includes('/') && !isAbsolute(command) ? resolve(context.workdir, command) : command,
      args: (server.args ?? []).map((arg, index) => expand(arg, `args[${index}]`)),
      env: mapValues(server.env ?? {}, (value, name) => expand(value, `env.${name}`)),
      cwd: context.workdir,
    };
  }
  const { transport } = server;
  // Entries from code (RuntimeOptions.mcpServers, an editor's session) have not been through the config schema.
  if (transport !== 'http' && transport !== 'sse') {
    throw new Error(`transport '${String(transport)}' is not one Keel speaks: use stdio, http or sse`);
  }
  if (server.command !== undefined || server.args !== undefined || server.env !== undefined) {
    throw new Error(
      `command, args and env belong to the stdio transport; an ${transport} server needs url (and headers)`,
    );
  }
  const url = expand(server.url ?? '', 'url').trim();
  if (url === '') throw new Error(`an ${transport} server needs a url`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`url '${displayUrl(url)}' is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`url must start with http:// or https://, not ${parsed.protocol}//`);
  }
  return {
    transport,
    ...common,
    url,
    headers: mapValues(server.headers ?? {}, (value, name) => expand(value, `headers.${name}`)),
  };
}

/**
 * The identity of a definition: two runs whose servers are defined alike share one connection, and a
 * changed definition (a new argument, header or working directory) gets a connection of its own.
 */
export function definitionKey(definition: McpServerDefinition): string {
  return JSON.stringify(definition, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** A URL fit for messages: scheme, host and path, without credentials or query (which may hold a token). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

function mapValues(
  record: Record<string, string>,
  map: (value: string, name: string) => string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, map(value, name)]));
}
