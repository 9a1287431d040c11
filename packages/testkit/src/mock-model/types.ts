import type { MockProfileName } from './profiles.ts';

/** Who sent the last message of a request, as OpenAI names roles (every protocol's roles map to these). */
export type MessageRole = 'user' | 'assistant' | 'tool' | 'system';

/** One tool call the scripted assistant makes. */
export type ScriptedToolCall = {
  /** Tool call id; default `call_<n>`. */
  id?: string;
  /** Function name. */
  name: string;
  /** Arguments: an object (sent as JSON) or a raw string, sent as is (malformed JSON on purpose). */
  arguments: Record<string, unknown> | string;
};

/** One scripted reply of the mock model. Replies are consumed in order (unless `repeat`). */
export type ScriptedReply = {
  /** Only use this reply for a request whose LAST message matches. Without it, any request matches. */
  when?: {
    /** The last message's text (string content or concatenated text parts) includes this. */
    lastMessageIncludes?: string;
    /** The last message has this role. */
    lastRole?: MessageRole;
  };
  /**
   * Keep the reply in the script after it is used, so it answers every matching request: a reply that is
   * a function of the conversation's state (its `when`), not of the order of requests. A client that asks
   * again for a turn it lost (a run recovered after a crash) gets the same answer.
   */
  repeat?: boolean;
  /** Wait this long before answering (aborted cleanly if the client goes away). */
  delayMs?: number;
  /**
   * Answer only once this promise settles (scripts built in the test's process): holds a turn open until
   * the test has done what it wants to do mid-turn, with no guess at how long that takes.
   */
  until?: Promise<unknown>;
  /** Wait this long between streamed chunks. */
  chunkDelayMs?: number;
  /** Assistant text, streamed in small chunks. */
  text?: string;
  /**
   * Reasoning, sent before the text: chat `reasoning_content`, a Responses `reasoning` item (summary),
   * an Anthropic `thinking` block, Gemini `thought` parts.
   */
  reasoning?: string;
  /** Tool calls; several make parallel tool calls (index 0, 1, 2...). */
  toolCalls?: ScriptedToolCall[];
  /** Token usage to report; default: roughly characters / 4. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /**
   * Chat completions: send no usage at all, even when the request asks for it with
   * `stream_options.include_usage`, as some OpenAI-compatible servers do.
   */
  omitUsage?: boolean;
  /** Answer with an HTTP error in the protocol's error shape instead of a completion. */
  error?: { status: number; message?: string; retryAfterSeconds?: number };
  /** Destroy the socket before any byte, or after a few chunks of the reply. */
  drop?: 'before-response' | 'mid-stream';
  /** Finish reason; default `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
};

/** Options of `startMockModel`. */
export type MockModelOptions = {
  /** Replies to serve, in order. More can be added with `server.push`. */
  script?: ScriptedReply[];
  /** Model names listed by `GET /v1/models`; default `['mock-model']`. */
  models?: string[];
  /** Characters per streamed text / reasoning chunk; default 8. */
  chunkSize?: number;
  /** Port to listen on; default 0 (a free port). */
  port?: number;
  /**
   * Write chat completions as this server family does (profiles.ts: each behaviour and its source), e.g.
   * `ollama`, `vllm-hermes`, `llamacpp`, `deepseek`, `openai-reasoning`; default `openai`, OpenAI's wire.
   */
  profile?: MockProfileName;
};

/**
 * The API family of a route: OpenAI chat completions (and `/v1/models`), the OpenAI Responses API,
 * the Anthropic Messages API, or the Gemini API.
 */
export type MockProtocol = 'chat' | 'responses' | 'anthropic' | 'gemini';

/** A request the mock model received. */
export type RecordedRequest = {
  /** The API family its path belongs to; undefined for a path no protocol serves (answered 404). */
  protocol: MockProtocol | undefined;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
};

/** The body of a chat-completion request as the client sent it (loosely typed on purpose). */
export type ChatRequestBody = {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown; [key: string]: unknown }>;
  tools?: Array<{
    type?: string;
    function?: { name?: string; [key: string]: unknown };
    [key: string]: unknown;
  }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
};

/** A running mock model server. */
export type MockModel = {
  /** Base URL for an OpenAI client, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /**
   * The server's root without `/v1`, e.g. `http://127.0.0.1:PORT`, for clients that append their
   * own path (`ANTHROPIC_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`).
   */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Bodies of the chat-completion requests, in order. */
  readonly chatRequests: readonly ChatRequestBody[];
  /** Number of replies not yet consumed (`repeat` replies are never consumed, so always count). */
  readonly remaining: number;
  /** Append replies to the script (validated). */
  push(...replies: ScriptedReply[]): void;
  /** Resolve once at least `count` requests were received (rejects after `timeoutMs`, default 5000). */
  waitForRequests(count: number, options?: { timeoutMs?: number }): Promise<readonly RecordedRequest[]>;
  /** Stop listening and destroy open connections. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};
