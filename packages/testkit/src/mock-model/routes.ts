import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatHandlerContext } from './chat-handler.ts';
import { handleChatCompletion } from './chat-handler.ts';
import { sendJson } from './http.ts';
import { openAIError } from './openai-error.ts';
import type { ChatRequestBody, RecordedRequest } from './types.ts';

/** Everything a route needs: the chat context plus the listed models. */
export type RouteContext = ChatHandlerContext & { models: readonly string[]; created: number };

const chatPath = '/v1/chat/completions';

/** Dispatch one recorded request to its handler. Unknown paths get OpenAI's 404 shape. */
export async function route(
  req: IncomingMessage,
  res: ServerResponse,
  request: RecordedRequest,
  context: RouteContext,
): Promise<void> {
  const { method, path } = request;
  if (path === chatPath) {
    if (method !== 'POST') {
      sendJson(res, 405, openAIError(405, `Method not allowed (${method} ${path}); use POST`), {
        allow: 'POST',
      });
      return;
    }
    if (!isObject(request.body)) {
      sendJson(res, 400, openAIError(400, 'The request body must be a JSON object.'));
      return;
    }
    await handleChatCompletion(req, res, request.body as ChatRequestBody, context);
    return;
  }
  if (method === 'GET' && path === '/v1/models') {
    sendJson(res, 200, { object: 'list', data: context.models.map((id) => modelEntry(id, context.created)) });
    return;
  }
  const modelId =
    method === 'GET' && path.startsWith('/v1/models/') ? path.slice('/v1/models/'.length) : undefined;
  if (modelId !== undefined && context.models.includes(decodeURIComponent(modelId))) {
    sendJson(res, 200, modelEntry(decodeURIComponent(modelId), context.created));
    return;
  }
  const message =
    modelId === undefined ? `Invalid URL (${method} ${path})` : `The model '${modelId}' does not exist`;
  sendJson(res, 404, openAIError(404, message, modelId === undefined ? 'unknown_url' : 'model_not_found'));
}

const modelEntry = (id: string, created: number) => ({
  id,
  object: 'model',
  created,
  owned_by: 'keel-testkit',
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
