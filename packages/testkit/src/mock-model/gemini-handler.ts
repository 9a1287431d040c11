import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerContext } from './exchange.ts';
import { serveExchange } from './exchange.ts';
import { geminiChunks, geminiResponse } from './gemini-body.ts';
import { sendJson } from './http.ts';
import type { LastMessage } from './last-message.ts';
import { geminiError } from './protocol-errors.ts';
import { postBody } from './route-helpers.ts';
import { isRecord } from './sse.ts';
import type { RecordedRequest } from './types.ts';
import { roughTokens } from './usage.ts';

/** `/v1beta/models/{model}:{method}` (also accepted under `/v1` and `/v1alpha`). */
const actionPath = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/;
const modelPath = /^\/v1beta\/models(?:\/([^/:]+))?$/;

/** The text a matcher sees for one part: its text, or a function response's `output` (else its JSON). */
function partText(part: Record<string, unknown>): string {
  if (typeof part.text === 'string') return part.text;
  const response = isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
  if (response === undefined) return '';
  return isRecord(response) && typeof response.output === 'string'
    ? response.output
    : JSON.stringify(response);
}

/**
 * The last content as a matcher sees it: `model` is `assistant`, `user` is `user`, and content
 * carrying a `functionResponse` part (a tool result) is `tool`; the text is its parts' text joined.
 */
export function lastGeminiMessage(body: Record<string, unknown>): LastMessage {
  const last: unknown = Array.isArray(body.contents) ? body.contents.at(-1) : undefined;
  if (!isRecord(last)) return { role: undefined, text: '' };
  const parts = Array.isArray(last.parts) ? last.parts.filter(isRecord) : [];
  const role = last.role === 'model' ? 'assistant' : typeof last.role === 'string' ? last.role : 'user';
  return {
    role: parts.some((part) => isRecord(part.functionResponse)) ? 'tool' : role,
    text: parts.map(partText).join(''),
  };
}

const modelEntry = (id: string) => ({
  name: `models/${id}`,
  version: 'mock',
  displayName: id,
  description: 'Scripted mock model (@keel/testkit)',
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
});

/** The Gemini API routes: model listing, generateContent, streamGenerateContent, countTokens. */
export async function routeGemini(
  req: IncomingMessage,
  res: ServerResponse,
  request: RecordedRequest,
  context: HandlerContext & { models: readonly string[] },
): Promise<void> {
  const listing = request.method === 'GET' ? modelPath.exec(request.path) : null;
  if (listing) {
    const id = listing[1] === undefined ? undefined : decodeURIComponent(listing[1]);
    if (id === undefined) sendJson(res, 200, { models: context.models.map(modelEntry) });
    else if (context.models.includes(id)) sendJson(res, 200, modelEntry(id));
    else sendJson(res, 404, geminiError(404, `models/${id} is not found`));
    return;
  }
  const action = actionPath.exec(request.path);
  const method = action?.[2];
  if (
    !action ||
    (method !== 'generateContent' && method !== 'streamGenerateContent' && method !== 'countTokens')
  ) {
    sendJson(res, 404, geminiError(404, `Not found (${request.method} ${request.path})`));
    return;
  }
  const body = postBody(res, request, geminiError);
  if (!body) return;
  if (method === 'countTokens') {
    sendJson(res, 200, { totalTokens: roughTokens(JSON.stringify(body)) });
    return;
  }
  const answer = {
    id: context.nextId('resp'),
    model: decodeURIComponent(action[1] ?? ''),
    chunkSize: context.chunkSize,
  };
  // `alt=sse` streams server-sent events; without it Gemini streams one JSON array.
  const sse = new URL(req.url ?? '/', 'http://localhost').searchParams.get('alt') === 'sse';
  await serveExchange(
    req,
    res,
    {
      last: lastGeminiMessage(body),
      prompt: [body.systemInstruction ?? '', body.contents ?? []],
      stream: method === 'streamGenerateContent',
      callIdPrefix: 'call',
      errorBody: (status, message) => geminiError(status, message),
      body: (reply, usage) => geminiResponse(reply, usage, answer),
      frames: (reply, usage) => {
        const chunks = geminiChunks(reply, usage, answer).map((chunk) => JSON.stringify(chunk));
        if (sse) return { frames: chunks.map((chunk) => `data: ${chunk}\r\n\r\n`) };
        return {
          frames: chunks.map((chunk, index) => `${index === 0 ? '[' : ',\r\n'}${chunk}`),
          end: ']',
          contentType: 'application/json; charset=UTF-8',
        };
      },
    },
    context,
  );
}
