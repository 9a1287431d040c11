import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildCompletion } from './completion-body.ts';
import type { HandlerContext } from './exchange.ts';
import { serveExchange } from './exchange.ts';
import { sendJson } from './http.ts';
import { lastMessage } from './last-message.ts';
import { openAIError } from './openai-error.ts';
import { profileRefusal } from './profile-checks.ts';
import { buildProfileChunks, buildProfileCompletion } from './profile-wire.ts';
import type { ChatProfile } from './profiles.ts';
import type { ResolvedReply } from './resolve-reply.ts';
import type { ChunkContext } from './stream-chunks.ts';
import { buildStreamChunks, sseData } from './stream-chunks.ts';
import type { ChatRequestBody } from './types.ts';

/** What the chat handler needs from the server: the dialect it writes, if not OpenAI's. */
export type ChatHandlerContext = HandlerContext & { profile?: ChatProfile | undefined };

/** Answer one POST /v1/chat/completions from the script. */
export async function handleChatCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  body: ChatRequestBody,
  context: ChatHandlerContext,
): Promise<void> {
  const { profile } = context;
  // A request the profile's server refuses is answered before it takes a reply from the script.
  const refusal = profile && profileRefusal(body, profile);
  if (refusal) {
    sendJson(res, 400, refusal);
    return;
  }
  const chunkContext = (reply: ResolvedReply, usage: ChunkContext['usage']): ChunkContext => ({
    id: context.nextId('chatcmpl'),
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === 'string' ? body.model : context.defaultModel,
    chunkSize: context.chunkSize,
    includeUsage: body.stream_options?.include_usage === true && reply.omitUsage !== true,
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
      body: (reply, usage) => {
        const completion = profile
          ? buildProfileCompletion(reply, profile, chunkContext(reply, usage))
          : buildCompletion(reply, chunkContext(reply, usage));
        return reply.omitUsage ? withoutUsage(completion) : completion;
      },
      frames: (reply, usage) => {
        const chunks = profile
          ? buildProfileChunks(reply, profile, chunkContext(reply, usage))
          : buildStreamChunks(reply, chunkContext(reply, usage));
        return { frames: chunks.map((chunk) => sseData(chunk)), end: sseData('[DONE]') };
      },
    },
    context,
  );
}

/** A chat.completion without its `usage` (a reply scripted with `omitUsage`). */
function withoutUsage(completion: object): object {
  const { usage: _usage, ...rest } = completion as { usage?: unknown };
  return rest;
}
