import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildCompletion } from './completion-body.ts';
import type { HandlerContext } from './exchange.ts';
import { serveExchange } from './exchange.ts';
import { lastMessage } from './last-message.ts';
import { openAIError } from './openai-error.ts';
import type { ChunkContext } from './stream-chunks.ts';
import { buildStreamChunks, sseData } from './stream-chunks.ts';
import type { ChatRequestBody } from './types.ts';

/** What the chat handler needs from the server. */
export type ChatHandlerContext = HandlerContext;

/** Answer one POST /v1/chat/completions from the script. */
export async function handleChatCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  body: ChatRequestBody,
  context: HandlerContext,
): Promise<void> {
  const chunkContext = (usage: ChunkContext['usage']): ChunkContext => ({
    id: context.nextId('chatcmpl'),
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === 'string' ? body.model : context.defaultModel,
    chunkSize: context.chunkSize,
    includeUsage: body.stream_options?.include_usage === true,
    usage,
  });
  await serveExchange(
    req,
    res,
    {
      last: lastMessage(body),
      prompt: body.messages,
      stream: body.stream === true,
      callIdPrefix: 'call',
      errorBody: (status, message, exhausted) =>
        openAIError(status, message, exhausted ? 'script_exhausted' : undefined),
      body: (reply, usage) => buildCompletion(reply, chunkContext(usage)),
      frames: (reply, usage) => ({
        frames: buildStreamChunks(reply, chunkContext(usage)).map((chunk) => sseData(chunk)),
        end: sseData('[DONE]'),
      }),
    },
    context,
  );
}
