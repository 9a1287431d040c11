import type { IncomingMessage, ServerResponse } from 'node:http';
import { anthropicEvents, anthropicMessage } from './anthropic-body.ts';
import type { HandlerContext } from './exchange.ts';
import { serveExchange } from './exchange.ts';
import { sendJson } from './http.ts';
import type { LastMessage } from './last-message.ts';
import { contentText } from './last-message.ts';
import { anthropicError } from './protocol-errors.ts';
import { postBody } from './route-helpers.ts';
import { isRecord } from './sse.ts';
import type { RecordedRequest } from './types.ts';
import { roughTokens } from './usage.ts';

/**
 * The last message as a matcher sees it: its role and text (string content, or the text blocks and
 * tool results' content joined). A user message carrying a `tool_result` block counts as `tool`.
 */
export function lastAnthropicMessage(body: Record<string, unknown>): LastMessage {
  const last: unknown = Array.isArray(body.messages) ? body.messages.at(-1) : undefined;
  if (!isRecord(last)) return { role: undefined, text: '' };
  const role = typeof last.role === 'string' ? last.role : undefined;
  if (typeof last.content === 'string') return { role, text: last.content };
  const blocks = Array.isArray(last.content) ? last.content.filter(isRecord) : [];
  const text = blocks
    .map((block) => {
      if (block.type === 'tool_result') return contentText(block.content);
      return block.type === 'text' && typeof block.text === 'string' ? block.text : '';
    })
    .join('');
  return { role: blocks.some((block) => block.type === 'tool_result') ? 'tool' : role, text };
}

/** POST /v1/messages and /v1/messages/count_tokens (Claude Code adds `?beta=true`; ignored). */
export async function routeAnthropic(
  req: IncomingMessage,
  res: ServerResponse,
  request: RecordedRequest,
  context: HandlerContext,
): Promise<void> {
  if (request.path !== '/v1/messages' && request.path !== '/v1/messages/count_tokens') {
    sendJson(res, 404, anthropicError(404, `Not found (${request.method} ${request.path})`));
    return;
  }
  const body = postBody(res, request, anthropicError);
  if (!body) return;
  if (request.path === '/v1/messages/count_tokens') {
    sendJson(res, 200, {
      input_tokens: roughTokens(JSON.stringify([body.system, body.messages, body.tools])),
    });
    return;
  }
  const answer = {
    id: context.nextId('msg'),
    model: typeof body.model === 'string' ? body.model : context.defaultModel,
    chunkSize: context.chunkSize,
  };
  await serveExchange(
    req,
    res,
    {
      last: lastAnthropicMessage(body),
      prompt: [body.system ?? '', body.messages ?? []],
      stream: body.stream === true,
      callIdPrefix: 'toolu',
      errorBody: (status, message) => anthropicError(status, message),
      body: (reply, usage) => anthropicMessage(reply, usage, answer),
      frames: (reply, usage) => ({ frames: anthropicEvents(reply, usage, answer) }),
    },
    context,
  );
}
