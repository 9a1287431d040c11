import { APIError } from 'openai/core/error';
import { CancelledError, type KeelError, ModelError } from '../errors/index.ts';
import { defaultModelBaseUrl } from './client.ts';
import { httpFetch } from './http-fetch.ts';
import { connectionFailure, mapModelError, shownUrl } from './map-error.ts';
import { type ModelProfileName, resolveProfile } from './profiles.ts';

/** One model a server lists. */
export interface ListedModel {
  id: string;
  /**
   * Its context window in tokens, where the server tells: the window it serves the model with (vLLM's
   * `max_model_len`, llama.cpp's `n_ctx`), else the model's own maximum (Ollama's `<arch>.context_length`,
   * llama.cpp's `n_ctx_train`, LM Studio's `max_context_length`).
   */
  contextLength?: number;
  /** Whether the server says the model can call tools (Ollama's `capabilities`); absent where it does not say. */
  tools?: boolean;
}

/** The server family, told from what its model list holds (or the endpoint's profile). */
export type ModelServer = 'ollama' | 'vllm' | 'llamacpp' | 'lmstudio' | 'other';

export interface ModelListing {
  server: ModelServer;
  models: ListedModel[];
}

export interface ModelListOptions {
  /** Where the API starts, as for a run (default: OpenAI's). */
  baseURL?: string | undefined;
  /** `no-key` sends none, as the model client does. */
  apiKey: string;
  /** The model a run would use: asked about first where a server is asked model by model (Ollama). */
  model?: string | undefined;
  /** The `model_profile` setting, when set: it names the server when its answers do not. */
  profile?: ModelProfileName | undefined;
  fetch?: typeof fetch | undefined;
  /** How long each request may take (default 5 s). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What one listing's requests share. */
interface Asker {
  baseURL: string;
  /** The server's root: the base URL without its trailing `/v1`, where native APIs (`/api/…`, `/props`) live. */
  root: string;
  apiKey: string;
  model: string | undefined;
  fetch: typeof fetch;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** At most this many models are asked about one by one (Ollama's `/api/show`): a listing stays quick. */
const maxAskedOneByOne = 16;

/**
 * Lists a model server's models (`GET {base}/models`, OpenAI's `{data: [{id}]}`) with the context length
 * and tool support where the server reports them, asking its own API where that is where it says so
 * (discovery-servers below). Only the list itself can fail: a KeelError (AUTHENTICATION_FAILED, MODEL_ERROR
 * with `details.reason`) in the words of a run's model errors. The key goes to the same server only.
 */
export async function listModels(options: ModelListOptions): Promise<ModelListing> {
  const baseURL = (options.baseURL ?? defaultModelBaseUrl).replace(/\/+$/, '');
  const asker: Asker = {
    baseURL,
    root: baseURL.replace(/\/v1$/, ''),
    apiKey: options.apiKey,
    model: options.model,
    fetch: options.fetch ?? httpFetch,
    timeoutMs: options.timeoutMs ?? 5000,
    signal: options.signal,
  };
  const url = shownUrl(baseURL);
  let answer: Answer;
  try {
    answer = await ask(asker, `${baseURL}/models`);
  } catch (error) {
    throw unreachable(error, asker, url);
  }
  if (answer.status < 200 || answer.status > 299) throw await refusedList(answer, asker, url);
  const entries = modelEntries(answer.body);
  if (!entries) {
    throw new ModelError(
      `The model endpoint ${url} answered GET /models, but not with a list of models ({"data": [{"id": …}]}): ` +
        'check that model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) is where the API starts (often …/v1).',
      { retryable: false, details: { url, reason: 'not_a_model_list' } },
    );
  }
  const profile = resolveProfile(baseURL, options.model ?? '', options.profile).name;
  const server = serverOf(entries, profile);
  const models = entries.map(listedFromEntry);
  // The native APIs only add detail: a server without them still has its list.
  await describers[server]?.(models, asker).catch(() => undefined);
  return { server, models };
}

/** One answer: its status and its body as JSON (undefined when it is not JSON). */
interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
  text: string;
}

/** One request to the server, with the key and a bounded wait. */
async function ask(asker: Asker, url: string, body?: unknown): Promise<Answer> {
  const signals = [AbortSignal.timeout(asker.timeoutMs), ...(asker.signal ? [asker.signal] : [])];
  const response = await asker.fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(asker.apiKey === 'no-key' ? {} : { authorization: `Bearer ${asker.apiKey}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.any(signals),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, body: json, headers: response.headers, text };
}

/** Why GET /models got no answer, worded as a run's model errors word it (map-error.ts). */
function unreachable(error: unknown, asker: Asker, url: string): KeelError {
  if (asker.signal?.aborted) return new CancelledError('Listing the models was cancelled.');
  if ((error as { name?: string }).name === 'TimeoutError') {
    return new ModelError(
      `The model endpoint ${url} did not answer GET /models within ${asker.timeoutMs / 1000} s (timeout).`,
      { retryable: true, cause: error, details: { url, reason: 'timeout' } },
    );
  }
  const { reason, words, retryable } = connectionFailure(error, asker.baseURL);
  return new ModelError(`Could not reach the model endpoint ${url}: ${words}`, {
    retryable,
    cause: error,
    details: { url, reason },
  });
}

/**
 * GET /models answered an HTTP error: a refused key, a model still loading or a server error as a run
 * would see it (mapModelError); a 404 means the address is not where the API starts, and Ollama's own
 * address (without `/v1`) is named as such when `/api/tags` answers there.
 */
async function refusedList(answer: Answer, asker: Asker, url: string): Promise<KeelError> {
  if (answer.status !== 404) {
    const error = APIError.generate(answer.status, answer.body as object, answer.text, answer.headers);
    return mapModelError(error, undefined, {
      baseURL: asker.baseURL,
      model: asker.model ?? '',
      keyed: asker.apiKey !== 'no-key',
    });
  }
  const ollama = await ask(asker, `${asker.baseURL}/api/tags`).then(
    (tags) => Array.isArray((tags.body as { models?: unknown } | undefined)?.models),
    () => false,
  );
  const fix = ollama
    ? `this is Ollama's own API: its OpenAI-compatible one is at ${url}/v1, set model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) to it.`
    : 'check that model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url) is where the API starts (often …/v1).';
  return new ModelError(`The model endpoint ${url} has no GET /models (HTTP 404): ${fix}`, {
    retryable: false,
    status: 404,
    details: { url, reason: 'no_model_list', ...(ollama ? { server: 'ollama' } : {}) },
  });
}

type Entry = Record<string, unknown> & { id: string };

/** The entries of OpenAI's model list, `{data: [{id, …}]}`, or undefined when the body is not one. */
function modelEntries(body: unknown): Entry[] | undefined {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.filter((entry): entry is Entry => isRecord(entry) && typeof entry.id === 'string');
}

/**
 * The server, from what only it puts in its model list; else from the endpoint's profile (its default port,
 * or `model_profile`). vLLM: `owned_by: "vllm"` and `max_model_len` (vllm/entrypoints/openai/protocol.py,
 * ModelCard); llama.cpp: `owned_by: "llamacpp"` and `meta` (tools/server/README.md, GET /v1/models); Ollama:
 * `owned_by` is the model's namespace, "library" for its library's models (openai/openai.go); LM Studio:
 * `owned_by: "organization_owner"` (its docs' /v1/models examples).
 */
function serverOf(entries: readonly Entry[], profile: ModelProfileName): ModelServer {
  const owners = new Set(entries.map((entry) => entry.owned_by));
  if (owners.has('vllm') || entries.some((entry) => typeof entry.max_model_len === 'number')) return 'vllm';
  if (owners.has('llamacpp') || entries.some((entry) => isRecord(entry.meta))) return 'llamacpp';
  if (owners.has('library')) return 'ollama';
  if (owners.has('organization_owner')) return 'lmstudio';
  if (profile === 'ollama' || profile === 'vllm' || profile === 'llamacpp' || profile === 'lmstudio')
    return profile;
  return 'other';
}

/** A list entry as a listed model: vLLM's `max_model_len`, llama.cpp's `meta.n_ctx` (the served window, newer builds) or `meta.n_ctx_train`. */
function listedFromEntry(entry: Entry): ListedModel {
  const meta = isRecord(entry.meta) ? entry.meta : {};
  const contextLength = tokens(entry.max_model_len) ?? tokens(meta.n_ctx) ?? tokens(meta.n_ctx_train);
  return { id: entry.id, ...(contextLength === undefined ? {} : { contextLength }) };
}

/** What each server's own API adds to its list. */
const describers: Partial<Record<ModelServer, (models: ListedModel[], asker: Asker) => Promise<void>>> = {
  llamacpp: describeLlamaCpp,
  lmstudio: describeLmStudio,
  ollama: describeOllama,
};

/**
 * llama.cpp serves one model, with the window it was started with (`-c`) in `GET /props`'s
 * `default_generation_settings.n_ctx` (tools/server/README.md, GET /props): that window, not the model's
 * `n_ctx_train`, is what a conversation must fit.
 */
async function describeLlamaCpp(models: ListedModel[], asker: Asker): Promise<void> {
  const only = models.length === 1 ? models[0] : undefined;
  if (!only) return;
  const props = await ask(asker, `${asker.root}/props`);
  const settings = (props.body as { default_generation_settings?: unknown } | undefined)
    ?.default_generation_settings;
  const served = isRecord(settings) ? tokens(settings.n_ctx) : undefined;
  if (served !== undefined) only.contextLength = served;
}

/**
 * LM Studio's own API lists each model with `max_context_length`, and a loaded one with the window it was
 * loaded with, `loaded_context_length` (lmstudio.ai/docs/developer/rest/endpoints, GET /api/v0/models).
 */
async function describeLmStudio(models: ListedModel[], asker: Asker): Promise<void> {
  const listed = modelEntries((await ask(asker, `${asker.root}/api/v0/models`)).body) ?? [];
  const byId = new Map(listed.map((entry) => [entry.id, entry]));
  for (const model of models) {
    const entry = byId.get(model.id);
    const contextLength = entry && (tokens(entry.loaded_context_length) ?? tokens(entry.max_context_length));
    if (contextLength !== undefined) model.contextLength = contextLength;
  }
}

/**
 * Ollama tells a model's details one model at a time: `POST /api/show {model}` answers its `model_info`,
 * where `<general.architecture>.context_length` is its window, and `capabilities`, which hold "tools" when
 * it can call tools (docs.ollama.com/api-reference/show-model-details; Ollama before 0.6.4 sends none).
 * The configured model is asked first, and at most maxAskedOneByOne in all, together.
 */
async function describeOllama(models: ListedModel[], asker: Asker): Promise<void> {
  const configured = models.filter((model) => model.id === asker.model);
  const asked = [...configured, ...models.filter((model) => model.id !== asker.model)].slice(
    0,
    maxAskedOneByOne,
  );
  await Promise.all(
    asked.map(async (model) => {
      const shown = await ask(asker, `${asker.root}/api/show`, { model: model.id }).catch(() => undefined);
      const body = shown && shown.status === 200 && isRecord(shown.body) ? shown.body : undefined;
      if (!body) return;
      const info = isRecord(body.model_info) ? body.model_info : {};
      const arch = info['general.architecture'];
      const contextLength = typeof arch === 'string' ? tokens(info[`${arch}.context_length`]) : undefined;
      if (contextLength !== undefined) model.contextLength = contextLength;
      if (Array.isArray(body.capabilities)) model.tools = body.capabilities.includes('tools');
    }),
  );
}

/** A positive whole number of tokens, or undefined. */
function tokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
