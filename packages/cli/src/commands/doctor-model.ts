import type { RuntimeConfig } from '@keel/runtime';
import {
  connectionFailure,
  defaultModelBaseUrl,
  type readEnv,
  resolveModelSettings,
  shownUrl,
} from '@keel/runtime/internal';
import { count, type DoctorCheck, fail, messageOf, ok, warn } from './doctor-check.ts';

type RuntimeEnv = ReturnType<typeof readEnv>;
type ModelSettings = ReturnType<typeof resolveModelSettings>;

/** How long the endpoint has to answer `GET /models`. */
const endpointTimeoutMs = 5000;
/** Where the address comes from, in the words of the runtime's own errors (model/map-error.ts). */
const baseUrlSetting = 'model_base_url (RUNTIME_MODEL_BASE_URL, --model-base-url)';
const keySetting = 'RUNTIME_MODEL_API_KEY';

/** The model a run would use, resolved as a run resolves it (no flags: the configuration and environment). */
export function modelCheck(config: RuntimeConfig, env: RuntimeEnv): DoctorCheck {
  try {
    const settings = resolveModelSettings({}, {}, config, env);
    const key = settings.apiKey === 'no-key' ? 'no API key sent' : `the key in ${keySetting}`;
    return ok('model', `${settings.model} at ${endpointOf(settings)}, ${key}`);
  } catch (error) {
    const missingKey = (error as { details?: { env?: string } }).details?.env === keySetting;
    return fail(
      'model',
      messageOf(error),
      missingKey
        ? `export ${keySetting}=<your key>, or point Keel at a local endpoint: keel config set model_base_url <url>.`
        : 'Choose one: keel config setup --model <name> --model-base-url <url> (or export RUNTIME_MODEL=<name>).',
    );
  }
}

/**
 * Asks the endpoint a run would talk to for its models (`GET {base_url}/models`, with the key a run would
 * send): reachable or not and why, the key accepted or not, the configured model listed or not. The key is
 * never shown; the URL is shown without credentials.
 */
export async function endpointCheck(config: RuntimeConfig, env: RuntimeEnv): Promise<DoctorCheck> {
  let settings: ModelSettings;
  let model: string | undefined;
  try {
    settings = resolveModelSettings({}, {}, config, env);
    model = settings.model;
  } catch {
    try {
      // No model configured: the endpoint is still worth asking. A request's model name changes neither
      // the address nor the key a run sends, so any name resolves them as a run would.
      settings = resolveModelSettings({ model: 'any' }, {}, config, env);
    } catch (error) {
      return warn('model-endpoint', `not asked: ${messageOf(error)}`, `export ${keySetting}=<your key>.`);
    }
  }
  const baseURL = settings.baseURL ?? defaultModelBaseUrl;
  const url = shownUrl(baseURL);
  let response: Response;
  try {
    response = await fetch(`${baseURL.replace(/\/+$/, '')}/models`, {
      headers: settings.apiKey === 'no-key' ? {} : { authorization: `Bearer ${settings.apiKey}` },
      signal: AbortSignal.timeout(endpointTimeoutMs),
    });
  } catch (error) {
    return unreachable(error, baseURL, url);
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel();
    const what =
      settings.apiKey === 'no-key'
        ? 'it needs an API key and none was sent'
        : `it refused the key in ${keySetting}`;
    return fail(
      'model-endpoint',
      `${url} answered HTTP ${response.status}: ${what}.`,
      `export ${keySetting}=<a key this endpoint accepts> (keys are read from the environment, never from files).`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    return warn(
      'model-endpoint',
      `${url} is reachable but answered HTTP ${response.status} to GET /models: the model could not be checked.`,
      `Check that ${baseUrlSetting} is where the API starts (often …/v1).`,
    );
  }
  const listed = await modelIds(response);
  if (listed === undefined) {
    return warn(
      'model-endpoint',
      `${url} is reachable but GET /models did not answer with a list of models.`,
      `Check that ${baseUrlSetting} is where the API starts (often …/v1).`,
    );
  }
  const answered = `${url} answers${settings.apiKey === 'no-key' ? '' : ' and accepts the key'}`;
  if (model === undefined || listed.includes(model)) {
    return ok('model-endpoint', `${answered}; it lists ${model ?? count(listed.length, 'model')}`);
  }
  const some = listed.slice(0, 5).join(', ') + (listed.length > 5 ? ', …' : '');
  return warn(
    'model-endpoint',
    `${answered}, but it does not list ${model} (it lists ${listed.length ? some : 'none'}).`,
    'Check the model name: model (RUNTIME_MODEL, --model), e.g. keel config set model <name>.',
  );
}

/** Why the endpoint could not be asked, worded as a run's model error words it. */
function unreachable(error: unknown, baseURL: string, url: string): DoctorCheck {
  const fix =
    'Start the model server, or point Keel at one that runs: keel config set model_base_url <url> ' +
    '(RUNTIME_MODEL_BASE_URL, or --model-base-url for one run).';
  if ((error as { name?: string }).name === 'TimeoutError') {
    return fail(
      'model-endpoint',
      `${url} did not answer within ${endpointTimeoutMs / 1000} s (timeout).`,
      fix,
    );
  }
  const { reason, words } = connectionFailure(error, baseURL);
  return fail(
    'model-endpoint',
    `Could not reach ${url}: ${words}`,
    reason === 'tls'
      ? `Use an http:// ${baseUrlSetting} for a plain-HTTP server; export NODE_EXTRA_CA_CERTS=<ca.pem> for a certificate of your own CA.`
      : fix,
  );
}

/** The ids of an OpenAI-style model list (`{ data: [{ id }] }`), or undefined when the body is not one. */
async function modelIds(response: Response): Promise<string[] | undefined> {
  try {
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return undefined;
    return body.data.flatMap((entry) => (typeof entry?.id === 'string' ? [entry.id as string] : []));
  } catch {
    return undefined;
  }
}

function endpointOf(settings: ModelSettings): string {
  return shownUrl(settings.baseURL ?? defaultModelBaseUrl);
}
