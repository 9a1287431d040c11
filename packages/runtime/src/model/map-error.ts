// The SDK's errors alone: its main module loads undici (chat-post.ts).
import {
  AuthenticationError as APIAuthenticationError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  PermissionDeniedError,
} from 'openai/core/error';
import { AuthenticationError, CancelledError, type KeelError, ModelError } from '../errors/index.ts';
import { spokenDelay } from './retry.ts';

/** What an error message may say about the request that failed. */
export interface ModelEndpoint {
  /** The base URL the request went to (the OpenAI default when none was set). */
  baseURL: string;
  model: string;
  /** Whether a key was sent (local endpoints usually take none). */
  keyed: boolean;
}

// Where each setting comes from, in the words every surface understands (the SDK's and the config's key,
// the environment variable, the command line's flag).
const baseUrlSetting = 'model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url)';
const modelSetting = 'model (RUNTIME_MODEL, --model)';

/**
 * Maps whatever the openai client threw to our error kinds, in words that name the endpoint, what went
 * wrong and which setting to change; retry policy reads `retryable`, and a failure that will fail the same
 * way again (nothing listens, no such host, TLS, a refused key, no such model) is not retried.
 */
export function mapModelError(
  error: unknown,
  signal: AbortSignal | undefined,
  endpoint: ModelEndpoint,
): KeelError {
  if (signal?.aborted || error instanceof APIUserAbortError) return new CancelledError();
  const url = shownUrl(endpoint.baseURL);
  if (error instanceof APIAuthenticationError || error instanceof PermissionDeniedError) {
    const fix = endpoint.keyed
      ? 'set RUNTIME_MODEL_API_KEY to a key it accepts (or model_api_key for one run)'
      : 'it needs an API key and none was sent: set RUNTIME_MODEL_API_KEY';
    return new AuthenticationError(
      `The model endpoint ${url} refused the request (HTTP ${error.status}): ${fix}.`,
      {
        status: error.status,
        url,
        env: 'RUNTIME_MODEL_API_KEY',
      },
    );
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`The model endpoint ${url} did not answer in time (timeout).`, {
      retryable: true,
      cause: error,
      details: { url, reason: 'timeout' },
    });
  }
  if (error instanceof APIConnectionError) {
    const { reason, words, retryable } = connectionFailure(error, endpoint.baseURL);
    return new ModelError(`Could not reach the model endpoint ${url}: ${words}`, {
      retryable,
      cause: error,
      details: { url, reason },
    });
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    const known = knownRefusal(error, endpoint, url) ?? stillLoading(error, url);
    if (known) {
      return new ModelError(known.message, {
        retryable: known.reason === 'loading',
        status,
        cause: error,
        details: { url, ...known.details, reason: known.reason },
      });
    }
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const hint =
      status === 404
        ? ` Check the model name "${endpoint.model}" (${modelSetting}) and that ${baseUrlSetting} is where the API starts (often …/v1).`
        : status === 429
          ? ' The endpoint is rate-limiting: Keel waits and tries again.'
          : '';
    return new ModelError(`The model endpoint ${url} answered HTTP ${status}: ${error.message}.${hint}`, {
      retryable,
      status,
      cause: error,
      details: { url },
    });
  }
  // A stream cut mid-way surfaces as a plain error from the body reader: treat it as a connection error.
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`The model stream from ${url} failed: ${message}`, {
    retryable: true,
    cause: error,
    details: { url, reason: 'stream' },
  });
}

/** What a known error means, in words for the user, with what the runtime reads from it (`details`). */
interface KnownError {
  reason: 'no_tools' | 'context_length' | 'loading';
  message: string;
  details?: Record<string, unknown>;
}

/**
 * How servers say that the conversation does not fit the model's context window (docs/models.md):
 * OpenAI, vLLM, DeepSeek, Mistral: "This model's maximum context length is 8192 tokens", "… too large for
 * model with 32768 maximum context length", OpenAI's code `context_length_exceeded` ("Your input exceeds
 * the context window of this model"); vLLM's engine: "Input prompt (9000 tokens) is too long and exceeds
 * limit of 8192"; llama.cpp: "the request exceeds the available context size" (a 400, a 500 from older
 * builds; since ggml-org/llama.cpp#15780 its body names `n_ctx`); llama-cpp-python: "Requested tokens (2285) exceed context
 * window of 2048"; LM Studio: "The number of tokens to keep from the initial prompt is greater than the
 * context length", "… loaded with context length of only 7866 tokens", "n_keep (15028) >= n_ctx (7424)";
 * Hugging Face TGI (a 422): "`inputs` tokens + `max_new_tokens` must be <= 8192" (huggingface/chat-ui#340),
 * "`inputs` must have less than 1024 tokens" (huggingface/text-generation-inference#937).
 */
const contextLengthWords =
  /maximum context length|context[ _]length[ _]exceeded|exceeds? the available context size|context window|prompt \(\d+ tokens\) is too long|too many tokens|greater than the context length|context length of only|n_keep \(\d+\) >= n_ctx|`inputs` tokens \+ `max_new_tokens` must be <=|`inputs` must have less than \d+ tokens/i;

/** Where those words give the window in tokens. */
const windowWords = [
  /maximum context length is (\d+)/i,
  /(\d+) maximum context length/i,
  /exceeds limit of (\d+)/i,
  /context window of (\d+)/i,
  /context length of only (\d+)/i,
  /n_ctx \((\d+)\)/i,
  /must be <= (\d+)/i,
  /must have less than (\d+) tokens/i,
];

/**
 * An error whose words say what is wrong with the model rather than with the request: the model cannot
 * call tools (Ollama: "<model> does not support tools", ollama/ollama#5793), or the conversation does not
 * fit its context window (contextLengthWords; details.window is the window when the server named it, which
 * the agent remembers and compacts by). Sending the same request again would fail the same way.
 */
function knownRefusal(error: APIError, endpoint: ModelEndpoint, url: string): KnownError | undefined {
  const said = error.message;
  const status = error.status ?? 0;
  if (status === 400 && /does not support tools/i.test(said)) {
    return {
      reason: 'no_tools',
      message:
        `The model "${endpoint.model}" at ${url} cannot call tools (the server says: ${said}), and Keel's agent needs ` +
        `tool calls. Choose a model with tool calling in ${modelSetting}: with Ollama, \`ollama show <model>\` lists ` +
        '"tools" under Capabilities (qwen2.5-coder, qwen3 and llama3.1 have it).',
    };
  }
  // Not a 429: "too many tokens" there is a rate limit (tokens per minute), not the window.
  const refusedStatus = status === 400 || status === 413 || status === 422 || status === 500;
  if (refusedStatus && (contextLengthWords.test(said) || error.code === 'context_length_exceeded')) {
    const window = windowOf(error);
    return {
      reason: 'context_length',
      details: window === undefined ? {} : { window },
      message:
        `The conversation no longer fits the context window of "${endpoint.model}" at ${url} (the server says: ${said}). ` +
        'Keel compacts a conversation before it reaches the window it knows for the model: give it the real one ' +
        `in the config's context.windows (e.g. {"context": {"windows": {"${endpoint.model}": ${window ?? 8192}}}}), or give the ` +
        'server a larger window (vLLM --max-model-len, llama.cpp -c, Ollama OLLAMA_CONTEXT_LENGTH).',
    };
  }
  return undefined;
}

/** The context window a context-length error names: llama.cpp's `n_ctx` field, or a number in its words. */
function windowOf(error: APIError): number | undefined {
  const field = (error.error as { n_ctx?: unknown } | undefined)?.n_ctx;
  if (typeof field === 'number' && Number.isInteger(field) && field > 0) return field;
  for (const words of windowWords) {
    const tokens = Number(words.exec(error.message)?.[1]);
    if (Number.isInteger(tokens) && tokens > 0) return tokens;
  }
  return undefined;
}

/**
 * A 503 while the server loads the model: llama.cpp answers every request with
 * `{"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}` until it has loaded
 * (ggml-org/llama.cpp#9056); Hugging Face's inference servers say "Model … is currently loading". Retried by its own, longer rule (retry.ts); a plain 503 ("overloaded", Ollama's "server busy")
 * is any 5xx.
 */
function stillLoading(error: APIError, url: string): KnownError | undefined {
  if (error.status !== 503 || !/\bloading\b/i.test(error.message)) return undefined;
  return {
    reason: 'loading',
    message: `The model endpoint ${url} is still loading the model (HTTP 503: ${error.message}).`,
  };
}

/** The last answer of a server that was still loading the model when Keel stopped waiting for it. */
export function stillLoadingAfter(error: KeelError, waitedMs: number): KeelError {
  return new ModelError(
    `${error.message} Keel waited ${spokenDelay(waitedMs)} for it to load: check the server's log (a model too ` +
      'large for the memory never loads), or try again once its /health answers.',
    { retryable: false, status: 503, cause: error.cause, details: { ...error.details, waited_ms: waitedMs } },
  );
}

/**
 * Why a connection failed, from the network error's code somewhere down the cause chain (an openai client
 * error, or a `fetch` TypeError whose cause is the socket's error): `keel doctor` words its probe the same.
 */
export function connectionFailure(
  error: unknown,
  baseURL: string,
): { reason: string; words: string; retryable: boolean } {
  const code = networkCode(error);
  const check = `check ${baseUrlSetting} and that the server runs.`;
  if (code === 'ECONNREFUSED') {
    return {
      reason: 'refused',
      words: `the connection was refused (nothing listens there): ${check}`,
      retryable: false,
    };
  }
  if (code === 'ENOTFOUND') {
    const host = hostOf(baseURL);
    return { reason: 'dns', words: `the host ${host} could not be resolved: ${check}`, retryable: false };
  }
  if (code === 'EAI_AGAIN') {
    return {
      reason: 'dns',
      words: 'the name server did not answer (DNS): it is tried again.',
      retryable: true,
    };
  }
  if (code && /^(?:ERR_TLS|ERR_SSL|EPROTO|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) {
    return {
      reason: 'tls',
      words:
        `TLS failed (${code}): a server that speaks plain HTTP needs an http:// ${baseUrlSetting}; ` +
        'a certificate of your own CA needs NODE_EXTRA_CA_CERTS.',
      retryable: false,
    };
  }
  return {
    reason: 'network',
    words: `the connection failed${code ? ` (${code})` : ''}: it is tried again; if it goes on, ${check}`,
    retryable: true,
  };
}

function networkCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at && depth < 5; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/** The endpoint for messages: without a user name, password, query or fragment it may carry. */
export function shownUrl(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return '(an invalid model_base_url)';
  }
}
