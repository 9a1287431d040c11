import { once } from 'node:events';
import type { FastifyReply } from 'fastify';

/** A comment line this often keeps proxies from closing a quiet stream. */
const keepAliveMs = 15_000;

export interface EventStream {
  /** Aborts when the client goes away or the stream was idle for too long. */
  readonly signal: AbortSignal;
  /** Writes one message (`id:` when given, then `data: <json>`), waiting out back-pressure. */
  send(data: unknown, id?: number): Promise<void>;
  end(): void;
}

/**
 * Takes over the response as a Server-Sent Events stream: each message is `data: <json>` and a blank
 * line. The stream's signal aborts when the client leaves or after `idleMs` with nothing sent.
 */
export function openEventStream(reply: FastifyReply, idleMs: number): EventStream {
  const controller = new AbortController();
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.on('close', () => controller.abort());
  let idle = setTimeout(() => controller.abort(), idleMs);
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
  const stop = () => {
    clearTimeout(idle);
    clearInterval(keepAlive);
  };
  controller.signal.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    async send(data, id) {
      if (controller.signal.aborted) return;
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), idleMs);
      const message = `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
      // A slow reader slows the stream (back-pressure) rather than having it buffered in memory.
      if (!res.write(message)) await once(res, 'drain', { signal: controller.signal }).catch(() => undefined);
    },
    end() {
      stop();
      res.end();
    },
  };
}
