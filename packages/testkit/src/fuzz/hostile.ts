import { request as httpRequest } from 'node:http';
import { WebSocket } from 'ws';

/** One spelling of a path, as an attacker would send it to slip past a check on the raw URL. */
export interface PathSpelling {
  name: string;
  path: string;
}

/**
 * The spellings of `path` (`/api/settings`) that routers and checks may read differently: percent
 * encoding of one letter and of a whole segment, double slashes, a trailing slash, dot segments, upper
 * case, an encoded slash, a query and a fragment-like suffix. Sent raw (`rawRequest`), not normalised.
 */
export function pathSpellings(path: string): PathSpelling[] {
  const segments = path.split('/').filter(Boolean);
  const first = segments[0] ?? '';
  const rest = segments.slice(1).join('/');
  const tail = rest ? `/${rest}` : '';
  const encodeAll = (text: string) =>
    [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  const spellings: PathSpelling[] = [
    { name: 'as is', path },
    {
      name: 'one letter encoded',
      path: `/%${(first.charCodeAt(0) || 97).toString(16)}${first.slice(1)}${tail}`,
    },
    { name: 'segment encoded', path: `/${encodeAll(first)}${tail}` },
    { name: 'upper-case encoding', path: `/${encodeAll(first).toUpperCase()}${tail}` },
    { name: 'leading double slash', path: `/${path}` },
    { name: 'inner double slash', path: `/${first}/${tail}` },
    { name: 'trailing slash', path: `${path}/` },
    { name: 'dot segment', path: `/${first}/.${tail}` },
    { name: 'dot-dot segment', path: `/x/..${path}` },
    { name: 'encoded dot-dot', path: `/x/%2e%2e${path}` },
    { name: 'upper case', path: path.toUpperCase() },
    { name: 'encoded slash', path: `/${first}${tail.replace('/', '%2F')}` },
    { name: 'with query', path: `${path}?token=&x=1` },
    { name: 'semicolon suffix', path: `${path};.css` },
  ];
  const seen = new Set<string>();
  return spellings.filter((spelling) => !seen.has(spelling.path) && seen.add(spelling.path));
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given: no normalisation of dots, slashes or encoding. */
  path: string;
  /** Every header as given, `host` included (none is added). */
  headers?: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The `error` object of an answer in the services' error shape, or undefined when it has none. */
export function errorOf(
  response: Pick<RawResponse, 'body'>,
): { code?: string; message?: string; details?: Record<string, unknown> } | undefined {
  try {
    return (JSON.parse(response.body) as { error?: ReturnType<typeof errorOf> }).error;
  } catch {
    return undefined;
  }
}

/** The port of a base URL such as `http://127.0.0.1:8000`. */
export function portOf(base: string): number {
  return Number(new URL(base).port);
}

/** One HTTP request over a real socket to 127.0.0.1:`port`, with the path and the Host exactly as given. */
export function rawRequest(port: number, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port,
      method: request.method,
      path: request.path,
      headers: { host: `127.0.0.1:${port}`, ...request.headers },
      setHost: false,
    });
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** How a WebSocket attempt ended: refused at the upgrade (its HTTP status), closed (its code), or open. */
export type SocketOutcome =
  | { kind: 'refused'; status: number }
  | { kind: 'closed'; code: number }
  | { kind: 'open'; socket: WebSocket };

/**
 * Opens a WebSocket to `url` with the given headers (an `Origin`, a `Host`) and reports what happened
 * first: the server refused the upgrade (its status), accepted and closed it (its code), or kept it open
 * (the caller closes it): open means it answered a ping.
 */
export function trySocket(url: string, headers: Record<string, string>): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      resolve({ kind: 'refused', status: response.statusCode ?? 0 });
      response.resume();
      socket.terminate();
    });
    socket.on('error', () => resolve({ kind: 'refused', status: 0 }));
    socket.on('close', (code) => resolve({ kind: 'closed', code }));
    // A server that accepts and then closes at once (4001) sends its close before it answers a ping.
    socket.on('open', () => {
      socket.ping();
      socket.once('pong', () => resolve({ kind: 'open', socket }));
    });
  });
}
