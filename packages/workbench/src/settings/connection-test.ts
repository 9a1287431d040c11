import type { connectionTestBody } from '@keel/protocol/workbench';
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
  error?: { message: string };
}

const trim = (url: string) => url.replace(/\/+$/, '');

/**
 * Calls `GET {base_url}/models` with the key and says in words what happened. The saved key goes only to
 * the base_url it was saved for (the secret-binding rule): testing another address uses the key sent with
 * it, or none. The key never appears in the answer.
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
  const url = `${trim(baseUrl)}/models`;
  const failed = (message: string): ConnectionTestResult => ({
    ok: false,
    base_url: baseUrl,
    models: [],
    error: { message },
  });
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === 'TimeoutError'
        ? 'no answer within 10 s'
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return failed(`Could not reach ${url} (${why}): check base_url and that the server runs.`);
  }
  if (response.status === 401 || response.status === 403) {
    return failed(
      key
        ? `${url} refused the API key (HTTP ${response.status}): check api_key${input.api_key ? '' : ', or send it with this base_url'}.`
        : `${url} needs an API key (HTTP ${response.status}) and none is saved for this base_url: send api_key.`,
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!response.ok || !Array.isArray(data)) {
    return failed(
      `${url} did not answer like an OpenAI-compatible endpoint (HTTP ${response.status}${response.ok ? ', no "data" list of models' : ''}): check base_url (it usually ends in /v1).`,
    );
  }
  const models = data
    .map((entry) => (entry as { id?: unknown }).id)
    .filter((id): id is string => typeof id === 'string');
  return { ok: true, base_url: baseUrl, models, ...(model ? { model_found: models.includes(model) } : {}) };
}
