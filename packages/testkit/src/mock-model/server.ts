import { EventEmitter, once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestkitError } from '../errors.ts';
import { listedModels } from './discovery-routes.ts';
import { parseBody, readBody, sendJson } from './http.ts';
import { openAIError } from './openai-error.ts';
import { resolveOptions } from './options.ts';
import type { RouteContext } from './routes.ts';
import { protocolOf, route } from './routes.ts';
import { ScriptQueue } from './script-queue.ts';
import { parseScript } from './script-schema.ts';
import type {
  ChatRequestBody,
  MockModel,
  MockModelOptions,
  RecordedRequest,
  ScriptedReply,
} from './types.ts';

/**
 * Start a scripted model server on 127.0.0.1 and a free port. It speaks OpenAI chat completions,
 * the OpenAI Responses API, the Anthropic Messages API and the Gemini API from one script.
 * @example
 * await using model = await startMockModel({ script: [{ text: 'Hello!' }] });
 * const client = new OpenAI({ baseURL: model.url, apiKey: 'test' });
 */
export async function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  const resolved = resolveOptions(options);
  const queue = new ScriptQueue(resolved.script);
  const requests: RecordedRequest[] = [];
  const chatRequests: ChatRequestBody[] = [];
  const events = new EventEmitter();
  let counter = 0;
  // Without models given, an Ollama profile also lists a model without tools (discovery-routes.ts).
  const models = listedModels(options.models, resolved.profile?.name);
  const context: RouteContext = {
    queue,
    models,
    defaultModel: models[0] ?? 'mock-model',
    chunkSize: resolved.chunkSize,
    created: Math.floor(Date.now() / 1000),
    nextId: (prefix) => `${prefix}_mock_${++counter}`,
    profile: resolved.profile,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { value } = parseBody(await readBody(req));
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/(.)\/+$/, '$1');
    const request: RecordedRequest = {
      protocol: protocolOf(path),
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body: value,
    };
    requests.push(request);
    if (
      request.path === '/v1/chat/completions' &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value)
    ) {
      chatRequests.push(value as ChatRequestBody);
    }
    events.emit('request');
    await route(req, res, request, context);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug or a vanished client: answer if we still can, else cut the connection.
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, openAIError(500, `Mock model failed: ${String(error)}`));
    });
  });
  server.listen(resolved.port, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive and streaming connections would keep close() waiting: cut them.
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    chatRequests,
    get remaining() {
      return queue.remaining;
    },
    push(...replies: ScriptedReply[]) {
      queue.push(parseScript(replies, 'reply passed to push()'));
    },
    waitForRequests: (count, waitOptions) =>
      waitForCount(events, requests, count, waitOptions?.timeoutMs ?? 5000),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function waitForCount(
  events: EventEmitter,
  requests: readonly RecordedRequest[],
  count: number,
  timeoutMs: number,
): Promise<readonly RecordedRequest[]> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (requests.length < count) return;
      cleanup();
      resolve(requests);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new TestkitError(
          'TIMEOUT',
          `Expected ${count} requests within ${timeoutMs} ms, got ${requests.length}`,
        ),
      );
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      events.off('request', check);
    };
    events.on('request', check);
    check();
  });
}
