/**
 * How each profile's server tells what models it has: its `GET /v1/models` entries and its own APIs
 * (Ollama's `/api/tags` and `/api/show`, llama.cpp's `/props`, LM Studio's `/api/v0/models`), each shaped
 * as the server's docs or source show it, so that model discovery (a client's model picker, `keel doctor`,
 * a connection test) can be tested against every server without running one. Keyed on the profile's name:
 * the profiles' own table (profiles.ts) is about chat completions only.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from './http.ts';
import type { OpenAIErrorBody } from './openai-error.ts';
import { isRecord } from './sse.ts';
import type { ChatRequestBody, RecordedRequest } from './types.ts';

/** What the discovery routes read of the server's state. */
export type DiscoveryContext = {
  models: readonly string[];
  created: number;
  /** The profile's name; undefined for OpenAI's own wire. */
  profile: { name: string } | undefined;
};

/** The server behind a profile, as far as its discovery endpoints go. */
type Server = 'openai' | 'deepseek' | 'vllm' | 'llamacpp' | 'lmstudio' | 'ollama' | 'ollama-legacy';

const serverOfProfile: Readonly<Record<string, Server>> = {
  deepseek: 'deepseek',
  'vllm-hermes': 'vllm',
  qwen: 'vllm',
  'vllm-reasoning': 'vllm',
  llamacpp: 'llamacpp',
  lmstudio: 'lmstudio',
  ollama: 'ollama',
  'ollama-legacy': 'ollama-legacy',
};

const serverOf = (context: DiscoveryContext): Server =>
  (context.profile && serverOfProfile[context.profile.name]) ?? 'openai';

const isOllama = (server: Server) => server === 'ollama' || server === 'ollama-legacy';

/** The context windows the mock servers report (any fixed, distinct numbers: tests compare them). */
export const mockContextLengths = {
  /** vLLM's `max_model_len`. */
  vllm: 32768,
  /** llama.cpp: the model's `n_ctx_train` and the window the server runs with (`/props` `n_ctx`). */
  llamacppTrained: 40960,
  llamacppServed: 8192,
  /** LM Studio's `max_context_length`. */
  lmstudio: 65536,
  /** Ollama's `<arch>.context_length` for most models, and for Gemma 3. */
  ollama: 131072,
  ollamaGemma: 32768,
} as const;

/**
 * Ollama's library models without tool support: Gemma 3's capabilities are `completion` and `vision`
 * (docs.ollama.com/api-reference/show-model-details, its example), and Ollama refuses `tools` for it.
 */
const withoutTools = /^gemma3?(?::|$)/;

/** The model an Ollama profile lists besides the default one, so a listing holds one without tools. */
export const mockModelWithoutTools = 'gemma3:1b';

/**
 * The models a profile's server lists: the ones given, or, when none were, the default one and for
 * Ollama also a model without tools (mockModelWithoutTools).
 */
export function listedModels(given: readonly string[] | undefined, profile: string | undefined): string[] {
  if (given) return [...given];
  const server = (profile === undefined ? undefined : serverOfProfile[profile]) ?? 'openai';
  return isOllama(server) ? ['mock-model', mockModelWithoutTools] : ['mock-model'];
}

/**
 * A `GET /v1/models` entry as each server writes it. vLLM: `owned_by: "vllm"`, `root`, `max_model_len`,
 * `permission` (vllm/entrypoints/openai/protocol.py, ModelCard); llama.cpp: `owned_by: "llamacpp"` and
 * `meta` with `n_ctx_train` (tools/server/README.md, GET /v1/models); LM Studio: `owned_by:
 * "organization_owner"`, no `created` (its docs' /v1/models examples); Ollama: `owned_by` is the model's
 * namespace, "library" (openai/openai.go); DeepSeek: `owned_by: "deepseek"` (api-docs.deepseek.com, Lists Models).
 */
export function modelEntry(id: string, context: DiscoveryContext): Record<string, unknown> {
  const { created } = context;
  switch (serverOf(context)) {
    case 'vllm':
      return {
        id,
        object: 'model',
        created,
        owned_by: 'vllm',
        root: id,
        parent: null,
        max_model_len: mockContextLengths.vllm,
        permission: [{ id: `modelperm-${id}`, object: 'model_permission', created, allow_sampling: true }],
      };
    case 'llamacpp':
      return {
        id,
        object: 'model',
        created,
        owned_by: 'llamacpp',
        meta: {
          vocab_type: 2,
          n_vocab: 151936,
          n_ctx_train: mockContextLengths.llamacppTrained,
          n_embd: 4096,
          n_params: 8190735360,
          size: 5027783488,
        },
      };
    case 'lmstudio':
      return { id, object: 'model', owned_by: 'organization_owner' };
    case 'ollama':
    case 'ollama-legacy':
      return { id, object: 'model', created, owned_by: 'library' };
    case 'deepseek':
      return { id, object: 'model', owned_by: 'deepseek' };
    default:
      return { id, object: 'model', created, owned_by: 'keel-testkit' };
  }
}

/**
 * Answers a server's own discovery endpoint for the profile; false when the path is none of them (the
 * caller answers 404, as every other server does).
 */
export function serveDiscovery(
  res: ServerResponse,
  request: RecordedRequest,
  context: DiscoveryContext,
): boolean {
  const server = serverOf(context);
  const { method, path } = request;
  if (isOllama(server) && method === 'GET' && path === '/api/tags') {
    sendJson(res, 200, { models: context.models.map((name) => ollamaTag(name, context)) });
    return true;
  }
  if (isOllama(server) && path === '/api/show') {
    serveOllamaShow(res, request, context, server);
    return true;
  }
  if (server === 'llamacpp' && method === 'GET' && path === '/props') {
    sendJson(res, 200, llamaCppProps(context));
    return true;
  }
  if (server === 'lmstudio' && method === 'GET' && path === '/api/v0/models') {
    sendJson(res, 200, { object: 'list', data: context.models.map(lmStudioModel) });
    return true;
  }
  return false;
}

/**
 * Ollama's 400 for tools sent to a model without tool support (ollama/ollama#5793: "registry.ollama.ai/
 * library/<model> does not support tools"), answered before a reply is taken from the script.
 */
export function toolsRefusal(body: ChatRequestBody, context: DiscoveryContext): OpenAIErrorBody | undefined {
  const model = typeof body.model === 'string' ? body.model : '';
  if (!isOllama(serverOf(context)) || !withoutTools.test(model)) return undefined;
  if (!Array.isArray(body.tools) || body.tools.length === 0) return undefined;
  const name = model.includes(':') ? model : `${model}:latest`;
  return {
    error: {
      message: `registry.ollama.ai/library/${name} does not support tools`,
      type: 'invalid_request_error',
      param: null,
      code: null,
    },
  };
}

/** Ollama's architecture for a model name: what `model_info` keys its context length by. */
const ollamaArch = (name: string) => (withoutTools.test(name) ? 'gemma3' : 'qwen2');

/** One `/api/tags` entry (docs.ollama.com/api-reference/list-models). */
function ollamaTag(name: string, context: DiscoveryContext): Record<string, unknown> {
  return {
    name,
    model: name,
    modified_at: new Date(context.created * 1000).toISOString(),
    size: 4683087332,
    digest: `sha256-${Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64)}`,
    details: ollamaDetails(name),
  };
}

function ollamaDetails(name: string): Record<string, unknown> {
  const family = ollamaArch(name);
  return {
    parent_model: '',
    format: 'gguf',
    family,
    families: [family],
    parameter_size: '7.6B',
    quantization_level: 'Q4_K_M',
  };
}

/**
 * `POST /api/show {model}` (older clients send `name`): `model_info` with `<arch>.context_length` and
 * `capabilities` (docs.ollama.com/api-reference/show-model-details); a model Ollama does not have is a
 * 404 `{"error": "model '<name>' not found"}`. Ollama before 0.6.4 (`ollama-legacy`) sent no capabilities.
 */
function serveOllamaShow(
  res: ServerResponse,
  request: RecordedRequest,
  context: DiscoveryContext,
  server: Server,
): void {
  if (request.method !== 'POST') {
    sendJson(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
    return;
  }
  const body = isRecord(request.body) ? request.body : {};
  const name = typeof body.model === 'string' ? body.model : typeof body.name === 'string' ? body.name : '';
  if (!context.models.includes(name)) {
    sendJson(res, 404, { error: `model '${name}' not found` });
    return;
  }
  const arch = ollamaArch(name);
  const tools = !withoutTools.test(name);
  sendJson(res, 200, {
    modelfile: `FROM ${name}`,
    parameters: 'temperature 0.7',
    template: '{{ .Prompt }}',
    details: ollamaDetails(name),
    model_info: {
      'general.architecture': arch,
      'general.parameter_count': 7615616512,
      [`${arch}.context_length`]: tools ? mockContextLengths.ollama : mockContextLengths.ollamaGemma,
      [`${arch}.embedding_length`]: 3584,
    },
    ...(server === 'ollama'
      ? { capabilities: tools ? ['completion', 'tools'] : ['completion', 'vision'] }
      : {}),
    modified_at: new Date(context.created * 1000).toISOString(),
  });
}

/**
 * llama.cpp's `GET /props`: the window the server was started with in `default_generation_settings.n_ctx`
 * (tools/server/README.md, GET /props), here smaller than the model's `n_ctx_train`, as with `-c 8192`.
 */
function llamaCppProps(context: DiscoveryContext): Record<string, unknown> {
  const model = context.models[0] ?? 'mock-model';
  return {
    default_generation_settings: { n_ctx: mockContextLengths.llamacppServed, params: { n_predict: -1 } },
    total_slots: 1,
    model_alias: model,
    model_path: `/models/${model}.gguf`,
    chat_template: '{{ messages }}',
    modalities: { vision: false, audio: false },
    build_info: 'b6000-keel-testkit',
  };
}

/** One `GET /api/v0/models` entry (lmstudio.ai/docs/developer/rest/endpoints). */
function lmStudioModel(id: string): Record<string, unknown> {
  return {
    id,
    object: 'model',
    type: 'llm',
    publisher: 'lmstudio-community',
    arch: 'qwen2',
    compatibility_type: 'gguf',
    quantization: 'Q4_K_M',
    state: 'not-loaded',
    max_context_length: mockContextLengths.lmstudio,
  };
}
