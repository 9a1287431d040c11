import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildCompletion } from './completion-body.ts';
import { sendJson, writeAndFlush } from './http.ts';
import { describeLastMessage, lastMessage } from './last-message.ts';
import { openAIError } from './openai-error.ts';
import type { ResolvedReply } from './resolve-reply.ts';
import { resolveReply } from './resolve-reply.ts';
import type { ScriptQueue } from './script-queue.ts';
import type { ChunkContext } from './stream-chunks.ts';
import { buildStreamChunks, sseData } from './stream-chunks.ts';
import type { ChatRequestBody, ScriptedReply } from './types.ts';
import { computeUsage } from './usage.ts';

/** What the chat handler needs from the server. */
export type ChatHandlerContext = {
  queue: ScriptQueue;
  defaultModel: string;
  chunkSize: number;
  nextId: (prefix: string) => string;
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

/** Answer one POST /v1/chat/completions from the script. */
export async function handleChatCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  body: ChatRequestBody,
  context: ChatHandlerContext,
): Promise<void> {
  const last = lastMessage(body);
  const scripted = context.queue.take(last);
  if (!scripted) {
    const left = context.queue.remaining;
    const why = left === 0 ? 'no replies left' : `none of the ${left} remaining replies matches`;
    const message = `Mock model script exhausted (${why}). Last message: ${describeLastMessage(last)}`;
    sendJson(res, 500, openAIError(500, message, 'script_exhausted'));
    return;
  }

  // The client going away (or server.close) aborts delays and stops the stream.
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  if (!(await wait(scripted.delayMs, abort.signal))) return;
  if (scripted.drop === 'before-response') {
    req.socket.destroy();
    return;
  }
  if (scripted.error) {
    sendError(res, scripted.error);
    return;
  }

  const reply = resolveReply(scripted, () => context.nextId('call'));
  const chunkContext: ChunkContext = {
    id: context.nextId('chatcmpl'),
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === 'string' ? body.model : context.defaultModel,
    chunkSize: context.chunkSize,
    includeUsage: body.stream_options?.include_usage === true,
    usage: computeUsage(reply, body),
  };
  if (body.stream === true) await streamReply(req, res, reply, chunkContext, abort.signal);
  else await sendCompletion(req, res, reply, chunkContext);
}

function sendError(res: ServerResponse, error: NonNullable<ScriptedReply['error']>): void {
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
  sendJson(res, error.status, openAIError(error.status, error.message), headers);
}

async function sendCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  reply: ResolvedReply,
  context: ChunkContext,
): Promise<void> {
  const completion = buildCompletion(reply, context);
  if (reply.drop !== 'mid-stream') {
    sendJson(res, 200, completion);
    return;
  }
  const text = JSON.stringify(completion);
  // Announce the full length, send half, then cut the connection.
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  await writeAndFlush(res, text.slice(0, Math.floor(text.length / 2)));
  req.socket.destroy();
}

async function streamReply(
  req: IncomingMessage,
  res: ServerResponse,
  reply: ResolvedReply,
  context: ChunkContext,
  signal: AbortSignal,
): Promise<void> {
  const chunks = buildStreamChunks(reply, context);
  // A mid-stream drop sends about half of the chunks (at least one) before cutting the connection.
  const dropAt = reply.drop === 'mid-stream' ? Math.max(1, Math.floor(chunks.length / 2)) : -1;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  for (const [index, chunk] of chunks.entries()) {
    if (index === dropAt) {
      req.socket.destroy();
      return;
    }
    if (index > 0 && !(await wait(reply.chunkDelayMs, signal))) return;
    if (signal.aborted) return;
    await writeAndFlush(res, sseData(chunk));
  }
  if (signal.aborted) return;
  res.end(sseData('[DONE]'));
}
