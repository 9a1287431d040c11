import { createServer, type Server, type ServerResponse } from 'node:http';
import { InvalidParamsError } from '@keel/runtime';
import { InvalidArgumentError } from 'commander';

/** `--health-port`: a TCP port, or 0 for any free one (the `started` line and stderr say which). */
export function healthPort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('must be a port number, 0 to 65535');
  return port;
}

/** What the worker knows of its store: not tried yet, answering, or being waited for. */
export type StoreState = 'connecting' | 'reachable' | 'unreachable';

/** `GET /health`'s body: `ok` (200) once the store answers; `starting` or `waiting` (503) until then. */
export interface HealthReport {
  status: 'ok' | 'starting' | 'waiting';
  worker_id: string;
  store: StoreState;
  /** Runs this worker executes now (a worker takes one at a time). */
  running: number;
  /** Why the worker is not ready (503 only). */
  reason?: string;
  /** When the worker tries its store again (while `waiting`). */
  retry_in_ms?: number;
}

/**
 * A worker's readiness as its loop tells it: the store reachable, waited for, or not tried yet, and the
 * runs in hand. Each change answers whether it changed anything, so a caller says it once.
 */
export class WorkerHealth {
  readonly workerId: string;
  #store: StoreState = 'connecting';
  #reason = 'opening the store';
  #retryInMs: number | undefined;
  #running = 0;

  constructor(workerId: string) {
    this.workerId = workerId;
  }

  /** The store answered: true when it was not known to before. */
  reachable(): boolean {
    if (this.#store === 'reachable') return false;
    this.#store = 'reachable';
    this.#retryInMs = undefined;
    return true;
  }

  /** The store could not be reached; the loop tries again in `retryInMs`. */
  unreachable(reason: string, retryInMs: number): void {
    this.#store = 'unreachable';
    this.#reason = reason;
    this.#retryInMs = retryInMs;
  }

  /** Only while the store has not answered yet: a later loss must not be covered by an earlier answer. */
  get connecting(): boolean {
    return this.#store === 'connecting';
  }

  started(): void {
    this.#running += 1;
  }

  finished(): void {
    this.#running = Math.max(0, this.#running - 1);
  }

  report(): HealthReport {
    const base = { worker_id: this.workerId, store: this.#store, running: this.#running };
    if (this.#store === 'reachable') return { status: 'ok', ...base };
    return {
      status: this.#store === 'connecting' ? 'starting' : 'waiting',
      ...base,
      reason: this.#reason,
      ...(this.#retryInMs === undefined ? {} : { retry_in_ms: this.#retryInMs }),
    };
  }
}

export interface HealthEndpoint {
  /** `http://host:port/health`, with the port the system gave when 0 was asked for. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /health` for a supervisor (a container's health check, a readiness probe): 200 with the
 * report when the worker can take runs, 503 with why not. Nothing else is served; it reads no request body.
 */
export async function serveHealth(health: WorkerHealth, host: string, port: number): Promise<HealthEndpoint> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/health') return answer(response, 404, { error: 'Only GET /health is served here.' });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return answer(response, 405, { error: 'Only GET /health is served here.' });
    }
    const report = health.report();
    answer(response, report.status === 'ok' ? 200 : 503, report, request.method === 'HEAD');
  });
  await listen(server, host, port);
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/health`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of a prober must not hold the worker's exit.
        server.closeAllConnections();
      }),
  };
}

function answer(response: ServerResponse, status: number, body: unknown, headOnly = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  response.end(headOnly ? undefined : text);
}

/** Listens, or says in one line why it cannot (a port in use, an address not on this machine). */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use'
          : error.code === 'EADDRNOTAVAIL'
            ? 'the address is not one of this machine'
            : error.message;
      reject(
        new InvalidParamsError(`Cannot serve the worker's health on ${host}:${port}: ${why}.`, {
          option: '--health-port',
          host,
          port,
        }),
      );
    });
    server.listen(port, host, () => resolve());
  });
}
