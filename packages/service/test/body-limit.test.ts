// A body over the limit is answered 413 PAYLOAD_TOO_LARGE in the error shape, and the client READS that
// answer, whether the body declared its length or was chunked past the limit (issue #40: clients saw
// "fetch failed" / ECONNRESET instead). A body far past the bound is still cut off, unread.
import { request as httpRequest } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { refusedBodyBound } from '../src/http/body-limit.ts';
import { frameworkOptions, installErrorHandling } from '../src/index.ts';
import { clients, flood, framings, sendOversized, tooLarge, watchConnections } from './oversized-body.ts';

// keel-web's own limit: 2 MiB bodies are past what the sockets buffer, so the client is still sending
// when the service decides.
const limit = 1024 * 1024;

async function startApp() {
  const app = Fastify({ bodyLimit: limit, ...frameworkOptions });
  installErrorHandling(app, { known: () => undefined });
  const framingsSeen: string[] = [];
  app.addHook('onRequest', async (request) => {
    framingsSeen.push(request.headers['transfer-encoding'] ? 'chunked' : 'content-length');
  });
  app.post('/echo', async (request) => ({ length: JSON.stringify(request.body).length }));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base, framingsSeen, [Symbol.asyncDispose]: () => app.close() };
}

describe('a body over the limit', () => {
  for (const client of clients) {
    for (const framing of framings) {
      test(`${client}, ${framing}: every one of 50 requests reads its 413`, async () => {
        await using service = await startApp();
        const url = `${service.base}/echo`;
        const outcomes = await sendOversized({ url, client, framing, size: 2 * limit, times: 50 });
        expect(outcomes).toEqual(outcomes.map(() => tooLarge(limit)));
        // The clients really sent what the test says they did.
        expect(new Set(service.framingsSeen)).toEqual(new Set([framing]));
        // And the service still answers a body within the limit.
        expect(await sendOversized({ url, client, framing, size: limit / 2, times: 1 })).toEqual([
          { status: 200, body: { length: limit / 2 } },
        ]);
      });
    }
  }

  test('once the refused body is read to its end, the connection stays open for the next request', async () => {
    await using service = await startApp();
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (size: number) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const outgoing = httpRequest(
          `${service.base}/echo`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (response) => {
            response.resume();
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, reused: outgoing.reusedSocket }),
            );
          },
        );
        outgoing.on('error', reject);
        outgoing.end(`"${'x'.repeat(size - 2)}"`);
      });
    expect(await send(2 * limit)).toEqual({ status: 413, reused: false });
    expect(await send(100)).toEqual({ status: 200, reused: true });
    agent.destroy();
  });
});

describe('a body far past the bound', () => {
  for (const framing of framings) {
    test(`${framing}: the service stops reading it (it is not made to read gigabytes)`, async () => {
      await using service = await startApp();
      const connections = watchConnections(service.app.server);
      const poured = await flood(`${service.base}/echo`, framing, 1024 ** 3);
      // Cut off long before the client gave up; whether the 413 still reached a client that never stops
      // sending is up to its network stack (the connection is reset under it).
      expect(poured.written).toBeLessThan(1024 ** 3);
      expect([undefined, 413]).toContain(poured.status);
      // What the service read: at most the bound, plus what was in flight when it stopped.
      expect(await connections.mostRead()).toBeLessThan(refusedBodyBound(limit) + 1024 ** 2);
    });
  }

  test('a client that gives up mid-body, or is cut off, leaves the service answering', async () => {
    await using service = await startApp();
    const url = `${service.base}/echo`;
    const connections = watchConnections(service.app.server);
    // Gives up while the service is still reading its body to the end.
    expect((await flood(url, 'chunked', 2 * limit)).status).toBeUndefined();
    await flood(url, 'chunked', 1024 ** 3);
    // Both connections are closed, not left hanging.
    await connections.mostRead();
    expect(
      await sendOversized({ url, client: 'fetch', framing: 'content-length', size: 2 * limit, times: 1 }),
    ).toEqual([tooLarge(limit)]);
  });
});
