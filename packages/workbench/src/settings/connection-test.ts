import type { connectionTestBody } from '@keel/protocol/workbench';
import { listModels, type ModelListing } from '@keel/runtime/internal';
import type { z } from 'zod';
import type { SettingsService } from './settings-service.ts';

export { connectionTestBody } from '@keel/protocol/workbench';
export type ConnectionTestInput = z.infer<typeof connectionTestBody>;

export interface ConnectionTestResult {
  ok: boolean;
  base_url: string | null;
  models: string[];
  /** Whether the model (given, else the saved one) is in the list; absent without a model. */
  model_found?: boolean;
  /** The server family, when its answers tell (`ollama`, `vllm`, `llamacpp`, `lmstudio`). */
  server?: string;
  /** Each listed model with its context window and tool support, where the server reports them. */
  model_details?: ModelDetails[];
  error?: { message: string };
}

interface ModelDetails {
  id: string;
  context_length?: number;
  tools?: boolean;
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** How long each request of the test may take. */
const timeoutMs = 10_000;

/**
 * Lists the endpoint's models (`GET {base_url}/models` with the key, and the server's own API for each
 * model's context window: the runtime's listModels, as `keel doctor` does) and says in words what happened.
 * The saved key goes only to the base_url it was saved for (the secret-binding rule), and to no other
 * server: testing another address uses the key sent with it, or none; redirects are not followed. The key
 * never appears in the answer.
 */
export async function testConnection(
  settings: SettingsService,
  input: ConnectionTestInput,
  fetcher: typeof fetch = globalThis.fetch,
): Promise<ConnectionTestResult> {
  const stored = await settings.stored();
  const baseUrl = input.base_url ?? stored.base_url;
  const model = input.model ?? stored.model ?? undefined;
  if (!baseUrl) {
    return {
      ok: false,
      base_url: null,
      models: [],
      error: { message: 'No base_url to test: save one with PUT /api/settings, or send it in this request.' },
    };
  }
  const sameAddress = stored.base_url !== null && trim(stored.base_url) === trim(baseUrl);
  const key = input.api_key ?? (sameAddress ? (await settings.secrets()).api_key : undefined);
  let listing: ModelListing;
  try {
    listing = await listModels({
      baseURL: baseUrl,
      apiKey: key ?? 'no-key',
      model,
      timeoutMs,
      fetch: (url, init) => fetcher(url, { ...init, redirect: 'error' }),
    });
  } catch (error) {
    return {
      ok: false,
      base_url: baseUrl,
      models: [],
      error: { message: failureWords(error, baseUrl, key, input) },
    };
  }
  const models = listing.models.map((entry) => entry.id);
  return {
    ok: true,
    base_url: baseUrl,
    models,
    ...(model ? { model_found: models.includes(model) } : {}),
    ...(listing.server === 'other' ? {} : { server: listing.server }),
    model_details: listing.models.map((entry) => ({
      id: entry.id,
      ...(entry.contextLength === undefined ? {} : { context_length: entry.contextLength }),
      ...(entry.tools === undefined ? {} : { tools: entry.tools }),
    })),
  };
}

/** What went wrong, naming the URL asked, from listModels' KeelError (its code and `details`). */
function failureWords(
  error: unknown,
  baseUrl: string,
  key: string | undefined,
  input: ConnectionTestInput,
): string {
  const url = `${trim(baseUrl)}/models`;
  const {
    code,
    details = {},
    cause,
  } = error as {
    code?: string;
    details?: Record<string, unknown>;
    cause?: { name?: string; message?: string; cause?: { code?: string; message?: string } };
  };
  const status = typeof details.status === 'number' ? details.status : undefined;
  if (code === 'AUTHENTICATION_FAILED') {
    return key
      ? `${url} refused the API key (HTTP ${status}): check api_key${input.api_key ? '' : ', or send it with this base_url'}.`
      : `${url} needs an API key (HTTP ${status}) and none is saved for this base_url: send api_key.`;
  }
  if (details.server === 'ollama') {
    return `${url} is not found (HTTP 404), but ${trim(baseUrl)} is Ollama's own API: use ${trim(baseUrl)}/v1 as base_url.`;
  }
  if (details.reason === 'not_a_model_list' || status !== undefined) {
    const what = status === undefined ? 'no "data" list of models' : `HTTP ${status}`;
    return `${url} did not answer like an OpenAI-compatible endpoint (${what}): check base_url (it usually ends in /v1).`;
  }
  const why =
    details.reason === 'timeout'
      ? `no answer within ${timeoutMs / 1000} s`
      : (cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? String(error));
  return `Could not reach ${url} (${why}): check base_url and that the server runs.`;
}
