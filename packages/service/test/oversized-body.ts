// Real HTTP clients sending a body over a service's limit, for the body-limit tests of @keel/service,
// keel-web and the workbench: the question is what the CLIENT receives, so nothing here is simulated.

import { execFile } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { Batch, Client, Framing, Outcome } from './oversized-body-client.ts';

export type { Client, Framing, Outcome };

export const clients: Client[] = ['fetch', 'node:http'];
export const framings: Framing[] = ['content-length', 'chunked'];

/** The answer to a body over `bodyLimit` bytes: 413 in the services' error shape. */
export function tooLarge(bodyLimit: number) {
  return {
    status: 413,
    body: {
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: expect.stringContaining(`${bodyLimit} bytes`),
        details: { reason: 'FST_ERR_CTP_BODY_TOO_LARGE', limit_bytes: bodyLimit },
      },
    },
  };
}

/**
 * Sends `times` bodies of `size` bytes, one after the other, from a client process of its own, and answers
 * what each client read. Another process because the failure under test needs the service to answer while
 * the client is still sending, as over a network: in the service's own thread the client writes only while
 * the service waits, and the race hardly shows.
 */
export async function sendOversized(batch: Batch): Promise<Outcome[]> {
  const client = fileURLToPath(new URL('./oversized-body-client.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [client, JSON.stringify(batch)], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Outcome[];
}

/** What a client pouring an endless body got: the status if an answer arrived, and how much it wrote. */
export interface Flood {
  status?: number;
  written: number;
}

/**
 * POSTs a body that never ends (chunked, or declaring 10 GiB) until the service answers or cuts the
 * connection. Gives up past `giveUpAfter` bytes, so a service that reads forever fails the test instead of
 * hanging it. On a connection of its own, so the service's sockets can be measured.
 */
export function flood(url: string, framing: Framing, giveUpAfter: number): Promise<Flood> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (framing === 'content-length') headers['content-length'] = String(10 * 1024 ** 3);
  return new Promise((resolve) => {
    let written = 0;
    let status: number | undefined;
    let settled = false;
    const outgoing = request(url, { method: 'POST', headers, agent: false });
    const settle = () => {
      if (settled) return;
      settled = true;
      outgoing.destroy();
      resolve({ written, ...(status === undefined ? {} : { status }) });
    };
    outgoing.on('response', (response) => {
      status = response.statusCode;
      response.resume();
      response.on('end', settle);
      response.on('error', settle);
    });
    outgoing.on('error', settle);
    outgoing.on('close', settle);
    const pour = () => {
      while (!settled && written < giveUpAfter) {
        written += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', pour);
          return;
        }
      }
      settle();
    };
    pour();
  });
}

/**
 * Counts what a server reads on the connections opened from now on: `mostRead()` answers the most bytes
 * one of them read, once each has closed.
 */
export function watchConnections(server: Server) {
  const sockets: Socket[] = [];
  const onConnection = (socket: Socket) => sockets.push(socket);
  server.on('connection', onConnection);
  return {
    async mostRead(): Promise<number> {
      server.off('connection', onConnection);
      await Promise.all(sockets.map((socket) => (socket.destroyed ? undefined : once(socket, 'close'))));
      return Math.max(0, ...sockets.map((socket) => socket.bytesRead));
    },
  };
}
