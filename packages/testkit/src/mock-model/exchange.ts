import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { sendJson, writeAndFlush } from './http.ts';
import type { LastMessage } from './last-message.ts';
import { describeLastMessage } from './last-message.ts';
import type { ResolvedReply } from './resolve-reply.ts';
import { resolveReply } from './resolve-reply.ts';
import type { ScriptQueue } from './script-queue.ts';
import type { Usage } from './usage.ts';
import { computeUsage } from './usage.ts';

/** What every protocol handler needs from the server. */
export type HandlerContext = {
  queue: ScriptQueue;
  defaultModel: string;
  chunkSize: number;
  nextId: (prefix: string) => string;
};

/** A streamed answer: complete frames (SSE events), then what closes the stream. */
export type StreamFrames = { frames: string[]; end?: string; contentType?: string };

/**
 * One model call in one protocol's words. The script queue, delays, drops, errors and usage are
 * shared; a protocol only says how to read the request and how to write the answer.
 */
export type Exchange = {
  /** The conversation's last message mapped to user/assistant/tool/system, for `when` matchers. */
  last: LastMessage;
  /** The request's conversation, for the default prompt token count. */
  prompt: unknown;
  stream: boolean;
  /** Tool call ids default to `<prefix>_mock_N`. */
  callIdPrefix: string;
  /** The protocol's error body; `exhausted` marks the "script exhausted" error. */
  errorBody(status: number, message: string | undefined, exhausted: boolean): object;
  /** The non-streamed JSON body. */
  body(reply: ResolvedReply, usage: Usage): object;
  /** The streamed frames. */
  frames(reply: ResolvedReply, usage: Usage): StreamFrames;
};

/** Wait, unless the client goes away first; false means it went away. */
async function wait(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (!ms) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Wait for `promise` to settle, unless the client goes away first; false means it went away. */
async function settled(promise: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  const gone = new Promise<false>((resolve) => {
    if (signal.aborted) resolve(false);
    signal.addEventListener('abort', () => resolve(false), { once: true });
  });
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    gone,
  ]);
}

/** Answer one model call from the script, in the exchange's protocol. */
export async function serveExchange(
  req: IncomingMessage,
  res: ServerResponse,
  exchange: Exchange,
  context: HandlerContext,
): Promise<void> {
  const scripted = context.queue.take(exchange.last);
  if (!scripted) {
    const left = context.queue.remaining;
    const why = left === 0 ? 'no replies left' : `none of the ${left} remaining replies matches`;
    const message = `Mock model script exhausted (${why}). Last message: ${describeLastMessage(exchange.last)}`;
    sendJson(res, 500, exchange.errorBody(500, message, true));
    return;
  }

  // The client going away (or server.close) aborts delays and stops the stream.
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  if (!(await wait(scripted.delayMs, abort.signal))) return;
  if (scripted.until && !(await settled(scripted.until, abort.signal))) return;
  if (scripted.drop === 'before-response') {
    req.socket.destroy();
    return;
  }
  if (scripted.error) {
    const { status, message, retryAfterSeconds } = scripted.error;
    const headers: Record<string, string> =
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
    sendJson(res, status, exchange.errorBody(status, message, false), headers);
    return;
  }

  const reply = resolveReply(scripted, () => context.nextId(exchange.callIdPrefix));
  const usage = computeUsage(reply, exchange.prompt);
  if (exchange.stream) await streamFrames(req, res, reply, exchange.frames(reply, usage), abort.signal);
  else await sendBody(req, res, reply, exchange.body(reply, usage));
}

async function sendBody(req: IncomingMessage, res: ServerResponse, reply: ResolvedReply, body: object) {
  if (reply.drop !== 'mid-stream') {
    sendJson(res, 200, body);
    return;
  }
  const text = JSON.stringify(body);
  // Announce the full length, send half, then cut the connection.
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  await writeAndFlush(res, text.slice(0, Math.floor(text.length / 2)));
  req.socket.destroy();
}

async function streamFrames(
  req: IncomingMessage,
  res: ServerResponse,
  reply: ResolvedReply,
  stream: StreamFrames,
  signal: AbortSignal,
): Promise<void> {
  const { frames } = stream;
  // A mid-stream drop sends about half of the frames (at least one) before cutting the connection.
  const dropAt = reply.drop === 'mid-stream' ? Math.max(1, Math.floor(frames.length / 2)) : -1;
  res.writeHead(200, {
    'content-type': stream.contentType ?? 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  for (const [index, frame] of frames.entries()) {
    if (index === dropAt) {
      req.socket.destroy();
      return;
    }
    if (index > 0 && !(await wait(reply.chunkDelayMs, signal))) return;
    if (signal.aborted) return;
    await writeAndFlush(res, frame);
  }
  if (signal.aborted) return;
  res.end(stream.end);
}
