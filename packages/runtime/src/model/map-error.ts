import OpenAI from 'openai';
import { AuthenticationError, CancelledError, type KeelError, ModelError } from '../errors/index.ts';

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
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) return new CancelledError();
  const url = shownUrl(endpoint.baseURL);
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
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
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError(`The model endpoint ${url} did not answer in time (timeout).`, {
      retryable: true,
      cause: error,
      details: { url, reason: 'timeout' },
    });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const { reason, words, retryable } = connectionFailure(error, endpoint.baseURL);
    return new ModelError(`Could not reach the model endpoint ${url}: ${words}`, {
      retryable,
      cause: error,
      details: { url, reason },
    });
  }
  if (error instanceof OpenAI.APIError && error.status === 400) {
    const known = knownRefusal(error.message, endpoint, url);
    if (known)
      return new ModelError(known.message, {
        retryable: false,
        status: 400,
        cause: error,
        details: { url, reason: known.reason },
      });
  }
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const status = error.status;
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

/**
 * A 400 whose words say what is wrong with the model rather than with the request: the model cannot call
 * tools (Ollama: "<model> does not support tools", ollama/ollama#5793), or the conversation does not fit
 * its context window (vLLM/OpenAI: "maximum context length is N tokens", llama.cpp: "exceeds the available
 * context size", vLLM: "Input prompt (N tokens) is too long"). Retrying would fail the same way.
 */
function knownRefusal(
  said: string,
  endpoint: ModelEndpoint,
  url: string,
): { reason: string; message: string } | undefined {
  if (/does not support tools/i.test(said)) {
    return {
      reason: 'no_tools',
      message:
        `The model "${endpoint.model}" at ${url} cannot call tools (the server says: ${said}), and Keel's agent needs ` +
        `tool calls. Choose a model with tool calling in ${modelSetting}: with Ollama, \`ollama show <model>\` lists ` +
        '"tools" under Capabilities (qwen2.5-coder, qwen3 and llama3.1 have it).',
    };
  }
  const tooLong =
    /maximum context length|context length exceeded|exceeds the available context size|context window|prompt \(\d+ tokens\) is too long|too many tokens/i;
  if (tooLong.test(said)) {
    return {
      reason: 'context_length',
      message:
        `The conversation no longer fits the context window of "${endpoint.model}" at ${url} (the server says: ${said}). ` +
        'Keel compacts a conversation before it reaches the window it knows for the model: give it the real one ' +
        `in the config's context.windows (e.g. {"context": {"windows": {"${endpoint.model}": 8192}}}), or give the ` +
        'server a larger window (vLLM --max-model-len, llama.cpp -c, Ollama OLLAMA_CONTEXT_LENGTH).',
    };
  }
  return undefined;
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

/** Seconds from a Retry-After header of an API error, when the endpoint sent one. */
export function retryAfterSeconds(error: KeelError): number | undefined {
  const cause = error.cause;
  if (!(cause instanceof OpenAI.APIError)) return undefined;
  const value = cause.headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}
