import { once } from 'node:events';
import type { FastifyReply } from 'fastify';

/** A comment line this often keeps proxies from closing a quiet stream. */
const keepAliveMs = 15_000;

export interface EventStream {
  /** Aborts when the client goes away or the stream was idle for too long. */
  readonly signal: AbortSignal;
  /** Writes one message (`id:` when given, then `data: <json>`), waiting out back-pressure. */
  send(data: unknown, id?: number): Promise<void>;
  /**
   * Writes stored events as they are (`id: <seq>`, `data: <json>`), all in one write, waiting out
   * back-pressure: how a page of a replay goes out without parsing or serialising each event again.
   */
  sendJson(events: readonly { seq: number; json: string }[]): Promise<void>;
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
  const write = async (text: string) => {
    if (controller.signal.aborted) return;
    clearTimeout(idle);
    idle = setTimeout(() => controller.abort(), idleMs);
    // A slow reader slows the stream (back-pressure) rather than having it buffered in memory.
    if (!res.write(text)) await once(res, 'drain', { signal: controller.signal }).catch(() => undefined);
  };
  return {
    signal: controller.signal,
    send(data, id) {
      return write(`${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`);
    },
    sendJson(events) {
      let text = '';
      // Stored JSON is one line (JSON.stringify never writes a raw newline), as a `data:` line must be.
      for (const { seq, json } of events) text += `id: ${seq}\ndata: ${json}\n\n`;
      return write(text);
    },
    end() {
      stop();
      res.end();
    },
  };
}
