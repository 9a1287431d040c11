import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers one request; `url` is the request's URL against the server's base. */
export type Route = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

/** A real HTTP server on 127.0.0.1 for webfetch and websearch to talk to. */
export interface FakeWeb extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly port: number;
  /** Every request received: method, path with query, and headers. */
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
}

/** Serves `routes` by path (query ignored); anything else is a 404 text page. */
export async function startFakeWeb(routes: Record<string, Route>): Promise<FakeWeb> {
  const requests: FakeWeb['requests'] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: request.method ?? '',
      path: `${url.pathname}${url.search}`,
      headers: request.headers,
    });
    const route = routes[url.pathname];
    if (route) return route(request, response, url);
    response.writeHead(404, { 'content-type': 'text/plain' }).end(`No page at ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    requests,
    async [Symbol.asyncDispose]() {
      // Routes that never answer (timeout tests) hold connections open: cut them.
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A route answering `body` with `type`. */
export function page(type: string, body: string | Buffer, status = 200): Route {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
  };
}

/** A route redirecting to `location` (302). */
export function redirect(location: string, status = 302): Route {
  return (_request, response) => {
    response.writeHead(status, { location }).end();
  };
}
