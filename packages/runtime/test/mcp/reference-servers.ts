import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { eventually } from '@keel/testkit';
import type { McpServerConfig } from '../../src/mcp/index.ts';

const require = createRequire(import.meta.url);

/** `${NAME}` as a config file writes it, for the runtime to expand. */
export function ref(name: string): string {
  return `\${${name}}`;
}

/** The entry point of the MCP reference server "everything", installed from npm. */
export const everythingEntry = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/**
 * A config entry that runs the reference server over stdio with this Node. The marker, an argument the
 * server ignores, lets a test find the server's process (and prove it is gone).
 */
export function everythingStdio(
  name = 'everything',
  extra: Partial<McpServerConfig> = {},
): { config: McpServerConfig; marker: string } {
  const marker = `keel-mcp-test-${randomUUID()}`;
  return {
    marker,
    config: {
      name,
      transport: 'stdio',
      command: process.execPath,
      args: [everythingEntry, 'stdio', marker],
      ...extra,
    },
  };
}

/** A config entry for a stdio "server" that runs `script` with this Node, marked like everythingStdio. */
export function nodeScriptServer(
  name: string,
  script: string,
  extra: Partial<McpServerConfig> = {},
): { config: McpServerConfig; marker: string } {
  const marker = `keel-mcp-test-${randomUUID()}`;
  return {
    marker,
    config: { name, transport: 'stdio', command: process.execPath, args: ['-e', script, marker], ...extra },
  };
}

/**
 * A "server" that never answers: it reads nothing and writes nothing. It exits only when orphaned, so an
 * interrupted test run cannot leave it behind, while ending its stdin (a polite close) does not stop it.
 */
export const silentServerScript =
  'const parent = process.ppid; setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 200);';

/** Ids of the processes on this machine whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** Polls until no process holds `marker` (a process may take a moment to be reaped), or fails. */
export async function expectNoProcessWith(marker: string, timeoutMs = 5_000): Promise<void> {
  await eventually(() => processesWith(marker).length === 0, {
    timeoutMs,
    intervalMs: 50,
    what: () => `no process with ${marker}; still running: ${processesWith(marker).join(', ')}`,
  });
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The reference server "everything" serving streamable HTTP on a free loopback port. */
export async function startEverythingHttp(): Promise<{ url: string; port: number } & AsyncDisposable> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await waitForOutput(child, 'listening on port', 15_000);
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    async [Symbol.asyncDispose]() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * A pass-through HTTP proxy in front of a real server that records each request's method and headers,
 * to see what the client sends on the wire.
 */
export async function startRecordingProxy(
  targetPort: number,
): Promise<{ url: string; seen: Array<{ method: string; headers: IncomingHttpHeaders }> } & AsyncDisposable> {
  const seen: Array<{ method: string; headers: IncomingHttpHeaders }> = [];
  const proxy = createServer((incoming, outgoing) => {
    seen.push({ method: incoming.method ?? '', headers: incoming.headers });
    const upstream = request(
      {
        host: '127.0.0.1',
        port: targetPort,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: `127.0.0.1:${targetPort}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    async [Symbol.asyncDispose]() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

function waitForOutput(child: ChildProcess, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not print "${text}" within ${timeoutMs} ms; it printed: ${output}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}) before it was ready: ${output}`));
    });
  });
}
