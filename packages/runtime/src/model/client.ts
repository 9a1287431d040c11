import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { Stream } from 'openai/streaming';
import { CancelledError, type KeelError } from '../errors/index.ts';
import { httpFetch } from './http-fetch.ts';
import { type ModelEndpoint, mapModelError, retryAfterSeconds } from './map-error.ts';
import type { ChatMessage, ToolCall } from './messages.ts';
import { type ModelProfile, type ModelProfileName, resolveProfile } from './profiles.ts';
import { refusedFor, refusedParameter, rememberRefusal, withoutRefused } from './refused-parameters.ts';
import { RequestEncoder } from './request-encoder.ts';
import { defaultRetryPolicy, type RetryPolicy, retryDelayMs } from './retry.ts';
import { TurnAssembler } from './turn-assembler.ts';

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
  /** Maximum tokens of one answer (`max_tokens`, or `max_completion_tokens` where that is wanted). */
  maxOutputTokens?: number;
  /** Sampling temperature (`temperature`); OpenAI's reasoning models take none. */
  temperature?: number;
  /**
   * How to read and write this server's dialect (profiles.ts, docs/models.md): the `model_profile`
   * setting. Without it, the profile is chosen from the endpoint and the model's name.
   */
  profile?: ModelProfileName;
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
  /** The server's dialect: what to read from its answers and what not to send it. */
  readonly profile: ModelProfile;

  constructor(settings: ModelSettings) {
    this.settings = settings;
    this.#retry = { ...defaultRetryPolicy, ...settings.retry };
    this.#endpoint = {
      baseURL: settings.baseURL ?? defaultModelBaseUrl,
      model: settings.model,
      keyed: settings.apiKey !== 'no-key',
    };
    this.profile = resolveProfile(this.#endpoint.baseURL, settings.model, settings.profile);
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
    const first = messages[0];
    let encoder = first && this.#encoders.get(first);
    if (!encoder) {
      encoder = new RequestEncoder({ reasoningSentBack: this.profile.reasoningSentBack });
      if (first) this.#encoders.set(first, encoder);
    }
    const toolNames = new Set(tools.map((tool) => tool.function.name));
    const { baseURL, model } = this.#endpoint;
    // A 400 naming a field of ours is answered by sending the request again without it, once per field;
    // the endpoint and model remember it for every later request of the process.
    for (const tried = new Set<string>(); ; ) {
      const head = withoutRefused(this.#head(), refusedFor(baseURL, model));
      const body = encoder.encode(head, messages, tools);
      let answered = false;
      try {
        const result = await this.#send(body, toolNames, handlers, signal);
        answered = true;
        return result;
      } catch (error) {
        const refused = signal?.aborted ? undefined : refusedParameter(error, head);
        if (!refused || tried.has(refused.param)) throw error;
        tried.add(refused.param);
        rememberRefusal(baseURL, model, refused);
      } finally {
        encoder.settle(body, answered);
      }
    }
  }

  /** The request's fields besides messages and tools, as this profile's server wants them. */
  #head(): Record<string, unknown> {
    const { settings, profile } = this;
    const head: Record<string, unknown> = {
      model: settings.model,
      stream: true,
      stream_options: { include_usage: true },
    };
    if (settings.enableThinking !== undefined) head.enable_thinking = settings.enableThinking;
    if (settings.thinkingBudget !== undefined) head.thinking_budget = settings.thinkingBudget;
    if (settings.maxOutputTokens !== undefined) head.max_tokens = settings.maxOutputTokens;
    if (settings.temperature !== undefined) head.temperature = settings.temperature;
    const omitted = new Map<string, string | undefined>(profile.omits.map((field) => [field, undefined]));
    for (const [field, name] of Object.entries(profile.renames)) omitted.set(field, name);
    return withoutRefused(head, omitted);
  }

  /** Sends one encoded request and assembles the streamed answer. */
  async #send(
    body: Buffer,
    toolNames: ReadonlySet<string>,
    handlers: TurnHandlers,
    signal?: AbortSignal,
  ): Promise<TurnResult> {
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
    const turn = new TurnAssembler(this.profile, toolNames, handlers);
    for await (const chunk of stream) await turn.add(chunk);
    // The openai stream ends quietly when aborted; a cut-short turn must not pass for a finished one.
    if (signal?.aborted) throw new CancelledError();
    return turn.finish();
  }
}

function isRetryable(error: KeelError): boolean {
  return (error as { retryable?: boolean }).retryable === true;
}
