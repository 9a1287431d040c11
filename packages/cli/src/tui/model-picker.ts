import {
  defaultModelBaseUrl,
  type ListedModel,
  listModels,
  loadConfig,
  type ModelListing,
  type ModelServer,
  readEnv,
  resolveModelSettings,
  shownUrl,
} from '@keel/runtime/internal';
import type { ModelFlags } from './settings.ts';

/** A server's models, as `/model` shows them: where they were asked (credentials masked) and the listing. */
export interface ServerModels extends ModelListing {
  url: string;
}

const serverNames: Record<ModelServer, string | null> = {
  ollama: 'Ollama',
  vllm: 'vLLM',
  llamacpp: 'llama.cpp',
  lmstudio: 'LM Studio',
  other: null,
};

/**
 * Lists the models of the endpoint the TUI's next run would talk to, with the key it would send: the
 * address and key resolved as a run resolves them (flags, config files, RUNTIME_* variables). Fails with
 * listModels' KeelError (or the ConfigError of a missing key or a broken config file).
 */
export async function listServerModels(
  flags: ModelFlags,
  workdir: string,
  env: NodeJS.ProcessEnv,
): Promise<ServerModels> {
  const vars = readEnv(env);
  const config = loadConfig(vars.home, workdir);
  const model = flags.model || config.model || vars.model || undefined;
  // With no model chosen yet the list is what helps choose one: a run's model name changes neither the
  // address nor the key, so any name resolves them (as keel doctor does).
  const settings = resolveModelSettings(
    { model: model ?? 'any', model_base_url: flags.modelBaseUrl },
    // `keel tui --model-base-url` gives the runtime the address as its own (command.ts): the same here.
    { model_base_url: flags.modelBaseUrl },
    config,
    vars,
  );
  const baseURL = settings.baseURL ?? defaultModelBaseUrl;
  const listing = await listModels({ baseURL, apiKey: settings.apiKey, model, profile: settings.profile });
  return { url: shownUrl(baseURL), ...listing };
}

/** `/model`'s answer: the models, numbered, the one in use marked, and how to choose. */
export function modelListLines(found: ServerModels, current: string | null): string[] {
  const server = serverNames[found.server];
  const where = `${found.url}${server ? ` (${server})` : ''}`;
  if (found.models.length === 0) {
    return [`${where} lists no models.`, 'Choose one by name with /model <id>.'];
  }
  const width = Math.max(...found.models.map((model) => model.id.length)) + 2;
  const lines = found.models.map((model, index) => {
    const facts = modelFacts(model);
    const mark = model.id === current ? '*' : ' ';
    return `${mark} ${String(index + 1).padStart(2)}  ${facts ? model.id.padEnd(width) + facts : model.id}`;
  });
  return [
    `Models at ${where}${current ? '; * is the one in use' : ''}`,
    ...lines,
    'Choose with /model <id or number>: your next prompts use it.',
  ];
}

/** What the server says of a model: `128k context`, `no tools`; empty when it says nothing. */
export function modelFacts(model: ListedModel): string {
  return [
    ...(model.contextLength === undefined ? [] : [contextWindow(model.contextLength)]),
    ...(model.tools === false ? ['no tools'] : []),
  ].join(', ');
}

/** A context window as people say it: 131072 tokens is `128k context` (k = 1024, as windows are sized). */
function contextWindow(tokens: number): string {
  return tokens >= 1024 ? `${Math.round(tokens / 1024)}k context` : `${tokens} tokens context`;
}

/** The listed model `/model <argument>` means: its id, else its number in the list `/model` shows. */
export function listedModel(found: ServerModels, argument: string): ListedModel | undefined {
  const byId = found.models.find((model) => model.id === argument);
  if (byId || !/^\d+$/.test(argument)) return byId;
  return found.models[Number(argument) - 1];
}
