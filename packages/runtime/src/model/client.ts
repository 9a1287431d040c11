import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledError } from '../errors/index.ts';
import { postChat } from './chat-post.ts';
import { type ChatTarget, chatTarget, defaultModelBaseUrl } from './chat-target.ts';
import { type ModelEndpoint, mapModelError, stillLoadingAfter } from './map-error.ts';
import type { ChatMessage } from './messages.ts';
import { type ModelProfile, type ModelProfileName, resolveProfile } from './profiles.ts';
import { refusedFor, refusedParameter, rememberRefusal, withoutRefused } from './refused-parameters.ts';
import { RequestEncoder } from './request-encoder.ts';
import {
  defaultRetryPolicy,
  nextRetry,
  type RetryCount,
  type RetryPolicy,
  retryAfterMs,
  waitWords,
} from './retry.ts';
import { TurnAssembler } from './turn-assembler.ts';
import type { ModelTool, TurnHandlers, TurnResult } from './turn-types.ts';

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
  /**
   * How the client waits between retries (default: a timer). Tests pass one that records the delay and
   * returns at once, so that a Retry-After or a loading model is tested without waiting for it.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export { defaultModelBaseUrl } from './chat-target.ts';
export type { ModelTool, RetryNotice, TurnHandlers, TurnResult, TurnUsage } from './turn-types.ts';

/** Streams model turns with tool calling, thinking, usage and announced retries. */
export class ModelClient {
  readonly settings: ModelSettings;
  /** Where requests go and their headers, made at the first request (chat-target.ts). */
  #target: ChatTarget | undefined;
  readonly #retry: RetryPolicy;
  /** What error messages name: where the requests go, for which model, with a key or not. */
  readonly #endpoint: ModelEndpoint;
  /** Each conversation's request encoder (request-encoder.ts), by its first message: runs in parallel share a client. */
  readonly #encoders = new WeakMap<ChatMessage, RequestEncoder>();
  /** The server's dialect: what to read from its answers and what not to send it. */
  readonly profile: ModelProfile;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(settings: ModelSettings) {
    this.settings = settings;
    this.#retry = { ...defaultRetryPolicy, ...settings.retry };
    this.#endpoint = {
      baseURL: settings.baseURL ?? defaultModelBaseUrl,
      model: settings.model,
      keyed: settings.apiKey !== 'no-key',
    };
    this.profile = resolveProfile(this.#endpoint.baseURL, settings.model, settings.profile);
    this.#sleep = settings.sleep ?? ((ms, signal) => sleep(ms, undefined, signal ? { signal } : {}));
  }

  /**
   * Runs one turn, retrying retryable failures (announced with `onRetry`, waiting as retry.ts says: a
   * server's Retry-After, longer for a model still loading); throws a KeelError when out of attempts.
   */
  async turn(
    messages: readonly ChatMessage[],
    tools: readonly ModelTool[],
    handlers: TurnHandlers = {},
    signal?: AbortSignal,
  ): Promise<TurnResult> {
    const count: RetryCount = { failures: 0, loadingTries: 0, loadingWaitedMs: 0 };
    for (;;) {
      try {
        return withUsage(await this.#streamOnce(messages, tools, handlers, signal), messages, tools);
      } catch (thrown) {
        const error = mapModelError(thrown, signal, this.#endpoint);
        const loading = error.details?.reason === 'loading';
        const retryable = (error as { retryable?: boolean }).retryable === true;
        const step = nextRetry(this.#retry, { retryable, loading, retryAfterMs: retryAfterMs(error) }, count);
        if (!step) throw loading ? stillLoadingAfter(error, count.loadingWaitedMs) : error;
        await handlers.onRetry?.({
          attempt: step.attempt,
          max_attempts: step.maxAttempts,
          error: `${error.message}${waitWords(step, this.#retry)}`,
        });
        await this.#sleep(step.delayMs, signal).catch(() => {
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
    // One try: retries are ours (turn()), so that each one is announced as a `retry` event.
    this.#target ??= chatTarget(this.settings);
    const stream = await postChat({
      ...this.#target,
      body,
      timeoutMs: this.settings.timeoutMs ?? 600_000,
      fetch: this.settings.fetch,
      signal,
    });
    const turn = new TurnAssembler(this.profile, toolNames, handlers);
    for await (const chunk of stream) await turn.add(chunk);
    // The openai stream ends quietly when aborted; a cut-short turn must not pass for a finished one.
    if (signal?.aborted) throw new CancelledError();
    return turn.finish();
  }
}

/** Characters a token, as the context estimate counts them (context/estimate-tokens.ts), and per message. */
const charsPerToken = 4;
const perMessage = 4;
/** An image, counted whole: its base64 length says nothing of what a model charges for it. */
const perImage = 1000;

/**
 * The turn with usage: the server's, or where it sent none (no usage chunk, or zeros for a turn that said
 * something) an estimate from the request and the answer, marked `estimated`. Budgets count it as any usage.
 */
function withUsage(
  result: TurnResult,
  messages: readonly ChatMessage[],
  tools: readonly ModelTool[],
): TurnResult {
  const { usage } = result;
  const answered = result.text.length + result.reasoning.length + result.toolCalls.length > 0;
  const noInput = usage.input_tokens === 0;
  const noOutput = usage.output_tokens === 0 && answered;
  if (!noInput && !noOutput) return result;
  const tokens = (text: string) => Math.ceil(text.length / charsPerToken);
  let input = tools.length ? tokens(JSON.stringify(tools)) : 0;
  for (const message of messages) {
    input += perMessage + tokens(message.content);
    if (message.role === 'user') input += (message.images?.length ?? 0) * perImage;
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      input += perMessage + tokens(call.name + call.arguments);
    }
  }
  let output = tokens(result.text) + tokens(result.reasoning);
  for (const call of result.toolCalls) output += perMessage + tokens(call.name + call.arguments);
  return {
    ...result,
    usage: {
      input_tokens: noInput ? input : usage.input_tokens,
      output_tokens: noOutput ? output : usage.output_tokens,
      estimated: true,
    },
  };
}
