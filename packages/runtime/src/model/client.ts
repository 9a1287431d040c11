import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { Stream } from 'openai/streaming';
import { CancelledError, type KeelError } from '../errors/index.ts';
import { httpFetch } from './http-fetch.ts';
import { type ModelEndpoint, mapModelError, retryAfterSeconds } from './map-error.ts';
import type { ChatMessage, ToolCall } from './messages.ts';
import { RequestEncoder } from './request-encoder.ts';
import { defaultRetryPolicy, type RetryPolicy, retryDelayMs } from './retry.ts';

/** Where and how to reach a chat-completions-compatible model. */
export interface ModelSettings {
  /** Model name sent to the endpoint. */
  model: string;
  /** Base URL of the endpoint (default: OpenAI's). */
  baseURL?: string;
  apiKey: string;
  /** Ask for thinking (`enable_thinking`), for models that support it. */
  enableThinking?: boolean;
  /** Maximum thinking tokens (`thinking_budget`). */
  thinkingBudget?: number;
  retry?: Partial<RetryPolicy>;
  /** Per-request timeout in milliseconds (default 10 minutes). */
  timeoutMs?: number;
  /** Injectable fetch, for tests and proxies. */
  fetch?: typeof fetch;
}

/** A function tool in the chat-completions `tools` format. */
export interface ModelTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
}

/** Everything one model turn produced, assembled from the stream. */
export interface TurnResult {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: TurnUsage;
  finishReason: string;
}

export interface RetryNotice {
  /** Number of the attempt about to be made (2 for the first retry). */
  attempt: number;
  max_attempts: number;
  error: string;
}

/** Called while a turn streams. A retry means the partial output seen so far is void. */
export interface TurnHandlers {
  onText?(delta: string): void | Promise<void>;
  onThinking?(delta: string): void | Promise<void>;
  onRetry?(notice: RetryNotice): void | Promise<void>;
}

type StreamDelta = OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string };

/** Where the model client goes when no base URL is set anywhere (the OpenAI client's default). */
export const defaultModelBaseUrl = 'https://api.openai.com/v1';

/** Streams model turns with tool calling, thinking, usage and announced retries. */
export class ModelClient {
  readonly settings: ModelSettings;
  readonly #client: OpenAI;
  readonly #retry: RetryPolicy;
  /** What error messages name: where the requests go, for which model, with a key or not. */
  readonly #endpoint: ModelEndpoint;
  /** Each conversation's request encoder (request-encoder.ts), by its first message: runs in parallel share a client. */
  readonly #encoders = new WeakMap<ChatMessage, RequestEncoder>();

  constructor(settings: ModelSettings) {
    this.settings = settings;
    this.#retry = { ...defaultRetryPolicy, ...settings.retry };
    this.#endpoint = {
      baseURL: settings.baseURL ?? defaultModelBaseUrl,
      model: settings.model,
      keyed: settings.apiKey !== 'no-key',
    };
    // Retries are ours, so that each one is announced as a `retry` event.
    this.#client = new OpenAI({
      apiKey: settings.apiKey,
      ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
      maxRetries: 0,
      timeout: settings.timeoutMs ?? 600_000,
      fetch: settings.fetch ?? httpFetch,
    });
  }

  /** Runs one turn, retrying retryable failures; throws a KeelError when out of attempts. */
  async turn(
    messages: readonly ChatMessage[],
    tools: readonly ModelTool[],
    handlers: TurnHandlers = {},
    signal?: AbortSignal,
  ): Promise<TurnResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#streamOnce(messages, tools, handlers, signal);
      } catch (thrown) {
        const error = mapModelError(thrown, signal, this.#endpoint);
        if (!isRetryable(error) || attempt >= this.#retry.maxAttempts) throw error;
        await handlers.onRetry?.({
          attempt: attempt + 1,
          max_attempts: this.#retry.maxAttempts,
          error: error.message,
        });
        await sleep(retryDelayMs(this.#retry, attempt, retryAfterSeconds(error)), undefined, {
          signal,
        }).catch(() => {
          throw mapModelError(signal?.reason, signal, this.#endpoint);
        });
      }
    }
  }

  async #streamOnce(
    messages: readonly ChatMessage[],
    tools: readonly ModelTool[],
    handlers: TurnHandlers,
    signal?: AbortSignal,
  ): Promise<TurnResult> {
    const head: Record<string, unknown> = {
      model: this.settings.model,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (this.settings.enableThinking !== undefined) head.enable_thinking = this.settings.enableThinking;
    if (this.settings.thinkingBudget !== undefined) head.thinking_budget = this.settings.thinkingBudget;
    const first = messages[0];
    let encoder = first && this.#encoders.get(first);
    if (!encoder) {
      encoder = new RequestEncoder();
      if (first) this.#encoders.set(first, encoder);
    }
    const body = encoder.encode(head, messages, tools);
    let answered = false;
    try {
      const result = await this.#send(body, handlers, signal);
      answered = true;
      return result;
    } finally {
      encoder.settle(body, answered);
    }
  }

  /** Sends one encoded request and assembles the streamed answer. */
  async #send(body: Buffer, handlers: TurnHandlers, signal?: AbortSignal): Promise<TurnResult> {
    // The body goes as bytes, so the openai client sends it as it is instead of serialising it again.
    const stream = await this.#client.post<Stream<OpenAI.Chat.Completions.ChatCompletionChunk>>(
      '/chat/completions',
      {
        body,
        headers: { 'content-type': 'application/json' },
        stream: true,
        ...(signal ? { signal } : {}),
      },
    );
    const result: TurnResult = {
      text: '',
      reasoning: '',
      toolCalls: [],
      usage: { input_tokens: 0, output_tokens: 0 },
      finishReason: 'stop',
    };
    const calls = new Map<number, ToolCall>();
    for await (const chunk of stream) {
      if (chunk.usage) {
        result.usage = {
          input_tokens: chunk.usage.prompt_tokens,
          output_tokens: chunk.usage.completion_tokens,
        };
      }
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta as StreamDelta;
      if (delta.reasoning_content) {
        result.reasoning += delta.reasoning_content;
        await handlers.onThinking?.(delta.reasoning_content);
      }
      if (delta.content) {
        result.text += delta.content;
        await handlers.onText?.(delta.content);
      }
      for (const part of delta.tool_calls ?? []) {
        const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
        calls.set(part.index, call);
      }
      if (choice.finish_reason) result.finishReason = choice.finish_reason;
    }
    // The openai stream ends quietly when aborted; a cut-short turn must not pass for a finished one.
    if (signal?.aborted) throw new CancelledError();
    result.toolCalls = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
    return result;
  }
}

function isRetryable(error: KeelError): boolean {
  return (error as { retryable?: boolean }).retryable === true;
}
