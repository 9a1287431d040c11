import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerContext } from './exchange.ts';
import { serveExchange } from './exchange.ts';
import type { LastMessage } from './last-message.ts';
import { contentText } from './last-message.ts';
import { openAIError } from './openai-error.ts';
import type { ResponsesContext } from './responses-body.ts';
import { outputItems, responseObject, responsesUsage } from './responses-body.ts';
import { responsesEvents } from './responses-stream.ts';
import { isRecord } from './sse.ts';

/** The body of a Responses API request (loosely typed: the server reads only a few fields). */
type ResponsesRequestBody = Record<string, unknown> & {
  model?: unknown;
  input?: unknown;
  instructions?: unknown;
  tools?: unknown;
  stream?: unknown;
};

/**
 * The last input item as a matcher sees it: a string input is a user message; a message keeps its
 * role (`developer` counts as `system`); any `*_output` item (a tool result) is `tool`; other items
 * (function calls, reasoning) are the assistant's.
 */
export function lastResponsesMessage(body: ResponsesRequestBody): LastMessage {
  const { input } = body;
  if (typeof input === 'string') return { role: 'user', text: input };
  const item: unknown = Array.isArray(input) ? input.at(-1) : undefined;
  if (!isRecord(item)) return { role: undefined, text: '' };
  const type = typeof item.type === 'string' ? item.type : 'message';
  if (type === 'message') {
    const role = item.role === 'developer' ? 'system' : typeof item.role === 'string' ? item.role : undefined;
    return { role, text: contentText(item.content) };
  }
  if (type.endsWith('_output')) {
    return { role: 'tool', text: typeof item.output === 'string' ? item.output : contentText(item.output) };
  }
  return { role: 'assistant', text: '' };
}

/** Answer one POST /v1/responses from the script. */
export async function handleResponses(
  req: IncomingMessage,
  res: ServerResponse,
  body: ResponsesRequestBody,
  context: HandlerContext,
): Promise<void> {
  const responsesContext = (callCount: number): ResponsesContext => ({
    ids: {
      response: context.nextId('resp'),
      reasoning: context.nextId('rs'),
      message: context.nextId('msg'),
      calls: Array.from({ length: callCount }, () => context.nextId('fc')),
    },
    createdAt: Math.floor(Date.now() / 1000),
    model: typeof body.model === 'string' ? body.model : context.defaultModel,
    instructions: body.instructions,
    tools: body.tools,
  });
  await serveExchange(
    req,
    res,
    {
      last: lastResponsesMessage(body),
      prompt: [body.instructions ?? '', body.input ?? []],
      stream: body.stream === true,
      callIdPrefix: 'call',
      errorBody: (status, message, exhausted) =>
        openAIError(status, message, exhausted ? 'script_exhausted' : undefined),
      body: (reply, usage) => {
        const ctx = responsesContext(reply.toolCalls.length);
        return responseObject(ctx, {
          output: outputItems(reply, ctx.ids),
          usage: responsesUsage(usage, reply),
        });
      },
      frames: (reply, usage) => ({
        frames: responsesEvents(reply, usage, responsesContext(reply.toolCalls.length), context.chunkSize),
      }),
    },
    context,
  );
}
