import { setTimeout as delay } from 'node:timers/promises';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { commandEnvironment } from '../tools/index.ts';
import type { McpServerDefinition } from './server-definition.ts';
import { BoundedSseTransport } from './sse-transport.ts';

const stderrTailChars = 1_000;

/** A transport to one server, and what it can tell about the server when something goes wrong. */
export interface ServerTransport {
  readonly transport: Transport;
  /** The last characters the server wrote to stderr (stdio only; empty for http and sse). */
  stderr(): string;
  /** Stops the server's process at once: for a server that did not answer in time. */
  kill(): void;
  /** Ends the session politely: the stdio server's stdin closes, the http session is deleted, the sse stream ends. */
  close(): Promise<void>;
}

/**
 * The transport for a definition. A stdio server gets the runtime's environment without its secrets and
 * without credential-like variables (as `exec_command` does), with the entry's own `env` on top; its
 * stderr is kept, not inherited, so it cannot scribble over a terminal UI and can explain a crash.
 */
export function createServerTransport(
  definition: McpServerDefinition,
  baseEnv: NodeJS.ProcessEnv,
): ServerTransport {
  if (definition.transport === 'http') {
    const transport = new StreamableHTTPClientTransport(new URL(definition.url), {
      requestInit: { headers: definition.headers },
    });
    return {
      transport,
      stderr: () => '',
      kill: () => void transport.close().catch(() => undefined),
      async close() {
        // Deleting the session frees the server's state for it; a server that does not answer is not waited for.
        await Promise.race([
          transport.terminateSession().catch(() => undefined),
          delay(1_000, undefined, { ref: false }),
        ]);
        await transport.close();
      },
    };
  }
  if (definition.transport === 'sse') {
    const transport = new BoundedSseTransport(
      new URL(definition.url),
      definition.headers,
      definition.connectTimeoutMs,
    );
    return {
      transport,
      stderr: () => '',
      kill: () => void transport.close().catch(() => undefined),
      // HTTP+SSE has no session to delete: the server ends it when the event stream closes.
      close: () => transport.close(),
    };
  }
  const transport = new PidKeepingStdioTransport({
    command: definition.command,
    args: definition.args,
    env: { ...definedValues(commandEnvironment(baseEnv)), ...definition.env },
    cwd: definition.cwd,
    stderr: 'pipe',
  });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-stderrTailChars);
  });
  return {
    transport,
    stderr: () => tail,
    kill() {
      const pid = transport.startedPid;
      if (pid === null) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
    close: () => transport.close(),
  };
}

/**
 * Remembers the server's process id: the SDK forgets it as soon as a failed connect starts closing, and a
 * server that never answered must be stopped now rather than after the SDK's two-second grace period.
 */
class PidKeepingStdioTransport extends StdioClientTransport {
  startedPid: number | null = null;

  override async start(): Promise<void> {
    await super.start();
    this.startedPid = this.pid;
  }
}

function definedValues(env: NodeJS.ProcessEnv): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) values[name] = value;
  return values;
}
