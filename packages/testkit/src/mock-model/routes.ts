import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeAnthropic } from './anthropic-handler.ts';
import { handleChatCompletion } from './chat-handler.ts';
import { modelEntry, serveDiscovery, toolsRefusal } from './discovery-routes.ts';
import type { HandlerContext } from './exchange.ts';
import { routeGemini } from './gemini-handler.ts';
import { sendJson } from './http.ts';
import { openAIError } from './openai-error.ts';
import type { ChatProfile } from './profiles.ts';
import { handleResponses } from './responses-handler.ts';
import { postBody } from './route-helpers.ts';
import type { ChatRequestBody, MockProtocol, RecordedRequest } from './types.ts';

/** Everything a route needs: the handler context plus the listed models. */
export type RouteContext = HandlerContext & {
  models: readonly string[];
  created: number;
  /** The chat-completions dialect (profiles.ts); undefined for OpenAI's wire. */
  profile: ChatProfile | undefined;
};

const openAIErrorBody = (status: number, message: string) => openAIError(status, message);

/**
 * The API family a path belongs to: Gemini's `/v1beta/...` (and `/v1/models/{m}:{method}`),
 * Anthropic's `/v1/messages...`, OpenAI's `/v1/responses`, and OpenAI's chat completions and
 * model listing; undefined for anything else.
 */
export function protocolOf(path: string): MockProtocol | undefined {
  if (path.startsWith('/v1beta/') || /^\/v1(?:alpha)?\/models\/[^/:]+:[A-Za-z]+$/.test(path)) return 'gemini';
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return 'anthropic';
  if (path === '/v1/responses') return 'responses';
  if (path === '/v1/chat/completions' || path === '/v1/models' || path.startsWith('/v1/models/'))
    return 'chat';
  return undefined;
}

/** Dispatch one recorded request to its protocol's handler. Unknown paths get OpenAI's 404 shape. */
export async function route(
  req: IncomingMessage,
  res: ServerResponse,
  request: RecordedRequest,
  context: RouteContext,
): Promise<void> {
  const { method, path } = request;
  if (request.protocol === 'gemini') return routeGemini(req, res, request, context);
  if (request.protocol === 'anthropic') return routeAnthropic(req, res, request, context);
  if (request.protocol === 'responses') {
    const body = postBody(res, request, openAIErrorBody);
    if (body) await handleResponses(req, res, body, context);
    return;
  }
  if (path === '/v1/chat/completions') {
    const body = postBody(res, request, openAIErrorBody);
    // Tools sent to an Ollama model without them: refused before a reply is taken from the script.
    const refusal = body && toolsRefusal(body as ChatRequestBody, context);
    if (refusal) sendJson(res, 400, refusal);
    else if (body) await handleChatCompletion(req, res, body as ChatRequestBody, context);
    return;
  }
  if (method === 'GET' && path === '/v1/models') {
    sendJson(res, 200, { object: 'list', data: context.models.map((id) => modelEntry(id, context)) });
    return;
  }
  const modelId =
    method === 'GET' && path.startsWith('/v1/models/') ? path.slice('/v1/models/'.length) : undefined;
  if (modelId !== undefined && context.models.includes(decodeURIComponent(modelId))) {
    sendJson(res, 200, modelEntry(decodeURIComponent(modelId), context));
    return;
  }
  // A profile's server's own discovery endpoints (Ollama's /api/tags, llama.cpp's /props, …).
  if (modelId === undefined && serveDiscovery(res, request, context)) return;
  const message =
    modelId === undefined ? `Invalid URL (${method} ${path})` : `The model '${modelId}' does not exist`;
  sendJson(res, 404, openAIError(404, message, modelId === undefined ? 'unknown_url' : 'model_not_found'));
}
