import type { RuntimeConfig } from '@keel/runtime';
import {
  connectionFailure,
  defaultModelBaseUrl,
  type ListedModel,
  listModels,
  type ModelListing,
  type readEnv,
  resolveModelSettings,
  shownUrl,
} from '@keel/runtime/internal';
import { count, type DoctorCheck, type DoctorModel, fail, messageOf, ok, warn } from './doctor-check.ts';

type RuntimeEnv = ReturnType<typeof readEnv>;
export type ModelSettings = ReturnType<typeof resolveModelSettings>;

/** How long the endpoint has to answer `GET /models` (and each request to its own API). */
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

/** What the endpoint check found: its line, and the settings and listing the tool-calling check goes on with. */
export interface EndpointFindings {
  check: DoctorCheck;
  /** The settings a run would use; undefined when no model is configured. */
  settings: ModelSettings | undefined;
  listing: ModelListing | undefined;
}

/**
 * Asks the endpoint a run would talk to for its models (`GET {base_url}/models`, with the key a run would
 * send, and the server's own API for each model's context length and tool support: listModels): reachable
 * or not and why, the key accepted or not, the configured model listed or not. The key is never shown; the
 * URL is shown without credentials.
 */
export async function endpointCheck(config: RuntimeConfig, env: RuntimeEnv): Promise<EndpointFindings> {
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
      const check = warn(
        'model-endpoint',
        `not asked: ${messageOf(error)}`,
        `export ${keySetting}=<your key>.`,
      );
      return { check, settings: undefined, listing: undefined };
    }
  }
  const configured = model === undefined ? undefined : settings;
  const baseURL = settings.baseURL ?? defaultModelBaseUrl;
  const url = shownUrl(baseURL);
  let listing: ModelListing;
  try {
    listing = await listModels({
      baseURL,
      apiKey: settings.apiKey,
      model,
      profile: settings.profile,
      timeoutMs: endpointTimeoutMs,
    });
  } catch (error) {
    return { check: listingFailure(error, settings, url), settings: configured, listing: undefined };
  }
  const listed = listing.models.map((entry) => entry.id);
  const answered = `${url} answers${settings.apiKey === 'no-key' ? '' : ' and accepts the key'}`;
  const models = listing.models.map(shownModel);
  const found = { ...(listing.server === 'other' ? {} : { server: listing.server }), models };
  const entry = listing.models.find((each) => each.id === model);
  if (model === undefined || entry) {
    const window = entry?.contextLength ? ` (context ${entry.contextLength} tokens)` : '';
    const check = ok(
      'model-endpoint',
      `${answered}; it lists ${model ?? count(listed.length, 'model')}${window}`,
    );
    return { check: { ...check, ...found }, settings: configured, listing };
  }
  const some = listed.slice(0, 5).join(', ') + (listed.length > 5 ? ', …' : '');
  const check = warn(
    'model-endpoint',
    `${answered}, but it does not list ${model} (it lists ${listed.length ? some : 'none'}).`,
    'Check the model name: model (RUNTIME_MODEL, --model), e.g. keel config set model <name>.',
  );
  return { check: { ...check, ...found }, settings: configured, listing };
}

/** A listed model as `--json` shows it. */
function shownModel(model: ListedModel): DoctorModel {
  return {
    id: model.id,
    ...(model.contextLength === undefined ? {} : { context_length: model.contextLength }),
    ...(model.tools === undefined ? {} : { tools: model.tools }),
  };
}

/** Why the models could not be listed (listModels' KeelError), in the words the check always used. */
function listingFailure(error: unknown, settings: ModelSettings, url: string): DoctorCheck {
  const details = (error as { details?: Record<string, unknown> }).details ?? {};
  const status = typeof details.status === 'number' ? details.status : undefined;
  const fix = `Check that ${baseUrlSetting} is where the API starts (often …/v1).`;
  if ((error as { code?: string }).code === 'AUTHENTICATION_FAILED') {
    const what =
      settings.apiKey === 'no-key'
        ? 'it needs an API key and none was sent'
        : `it refused the key in ${keySetting}`;
    return fail(
      'model-endpoint',
      `${url} answered HTTP ${status}: ${what}.`,
      `export ${keySetting}=<a key this endpoint accepts> (keys are read from the environment, never from files).`,
    );
  }
  if (details.reason === 'not_a_model_list') {
    return warn(
      'model-endpoint',
      `${url} is reachable but GET /models did not answer with a list of models.`,
      fix,
    );
  }
  if (status !== undefined) {
    return warn(
      'model-endpoint',
      `${url} is reachable but answered HTTP ${status} to GET /models: the model could not be checked.`,
      details.server === 'ollama'
        ? `This is Ollama's own address: its OpenAI-compatible API is at ${url}/v1 (keel config set model_base_url ${url}/v1).`
        : fix,
    );
  }
  return unreachable(error, settings.baseURL ?? defaultModelBaseUrl, url, details.reason);
}

/** Why the endpoint could not be asked, worded as a run's model error words it. */
function unreachable(error: unknown, baseURL: string, url: string, reason: unknown): DoctorCheck {
  const fix =
    'Start the model server, or point Keel at one that runs: keel config set model_base_url <url> ' +
    '(RUNTIME_MODEL_BASE_URL, or --model-base-url for one run).';
  if (reason === 'timeout') {
    return fail(
      'model-endpoint',
      `${url} did not answer within ${endpointTimeoutMs / 1000} s (timeout).`,
      fix,
    );
  }
  const failure = connectionFailure((error as { cause?: unknown }).cause ?? error, baseURL);
  return fail(
    'model-endpoint',
    `Could not reach ${url}: ${failure.words}`,
    failure.reason === 'tls'
      ? `Use an http:// ${baseUrlSetting} for a plain-HTTP server; export NODE_EXTRA_CA_CERTS=<ca.pem> for a certificate of your own CA.`
      : fix,
  );
}

function endpointOf(settings: ModelSettings): string {
  return shownUrl(settings.baseURL ?? defaultModelBaseUrl);
}
