// The plumbing both provider fakes share: a real HTTP server on 127.0.0.1 (port 0) that hands each
// request, its JSON body read, to a handler and records it for the test to inspect.
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as is (`text/plain` unless `headers` say otherwise) instead of `body` as JSON. */
  text?: string;
}

export interface JsonServer {
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startJsonServer(
  handle: (request: RecordedRequest) => JsonReply | Promise<JsonReply>,
): Promise<JsonServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(incoming.url ?? '/', 'http://fake');
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body,
      };
      requests.push(request);
      let reply: JsonReply;
      try {
        reply = await handle(request);
      } catch (error) {
        reply = { status: 500, body: { message: error instanceof Error ? error.message : String(error) } };
      }
      if (reply.text !== undefined) {
        outgoing
          .writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', ...reply.headers })
          .end(reply.text);
        return;
      }
      outgoing
        .writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers })
        .end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
