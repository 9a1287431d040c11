import { checkToolCalling, type ModelListing, type ModelServer } from '@keel/runtime/internal';
import type { DoctorCheck } from './doctor-check.ts';
import { fail, ok, warn } from './doctor-check.ts';
import type { EndpointFindings } from './doctor-model.ts';

const modelSetting = 'keel config set model <name> (RUNTIME_MODEL, --model)';

/**
 * Whether tool calling works with the configured model: one tiny tool-calling request through the model
 * client a run uses (checkToolCalling), after the endpoint check, and only when that found the endpoint.
 */
export async function toolCallingCheck(found: EndpointFindings): Promise<DoctorCheck> {
  const { settings, listing } = found;
  if (!settings) {
    return warn(
      'tool-calling',
      'not checked: no model is configured (see model).',
      'Choose a model first (see model).',
    );
  }
  if (found.check.status === 'fail') {
    return warn(
      'tool-calling',
      'not checked: the model endpoint cannot be used (see model-endpoint).',
      'Fix the model endpoint first (see model-endpoint).',
    );
  }
  const { model } = settings;
  const check = await checkToolCalling(settings);
  if (check.verdict === 'works') {
    return ok(
      'tool-calling',
      `${model} called the tool it was offered: tool calling works (profile ${check.profile}).`,
    );
  }
  if (check.verdict === 'refused') {
    // The server's own words, without the runtime's advice around them (the fix below gives it).
    return fail(
      'tool-calling',
      `${model} cannot call tools on this server, and Keel's agent needs them: it answered "${check.said}".`,
      withTools(listing, model),
    );
  }
  if (check.verdict === 'text') {
    const cut = check.finishReason === 'length' ? ' (cut off at the token limit before any call)' : '';
    const said = check.said ? `: "${check.said}"` : '';
    return warn(
      'tool-calling',
      `${model} answered in text instead of calling the tool it was offered${cut}${said}.`,
      textFix(listing?.server ?? serverOfProfile(check.profile)),
    );
  }
  return fail(
    'tool-calling',
    `The tool-calling request failed: ${check.said ?? 'no reason given'}`,
    `Check the model name, ${modelSetting}, and the server's log.`,
  );
}

/** What to choose instead of a model the server refuses tools for: the listed models that have them. */
function withTools(listing: ModelListing | undefined, model: string): string {
  const able = (listing?.models ?? []).filter((entry) => entry.tools === true && entry.id !== model);
  const named = able
    .slice(0, 3)
    .map((entry) => entry.id)
    .join(', ');
  const choose = named
    ? `Choose one that can (this server lists ${named}): `
    : 'Choose a model with tool calling: ';
  return `${choose}${modelSetting}. With Ollama, \`ollama show <model>\` lists "tools" under Capabilities.`;
}

/** Why a model may answer in text, server by server (docs/models.md, "Your server"). */
function textFix(server: ModelServer): string {
  const anyModel = `or choose a model trained for tool calling: ${modelSetting}`;
  switch (server) {
    case 'vllm':
      return `Start vLLM with --enable-auto-tool-choice --tool-call-parser <parser> (hermes for Qwen and Hermes models), ${anyModel}.`;
    case 'llamacpp':
      return `Start llama-server with --jinja, ${anyModel}.`;
    case 'ollama':
      return `Choose a model with tool support (\`ollama show <model>\` lists "tools" under Capabilities): ${modelSetting}.`;
    default:
      return `Choose a model trained for tool calling: ${modelSetting}.`;
  }
}

function serverOfProfile(profile: string): ModelServer {
  return profile === 'ollama' || profile === 'vllm' || profile === 'llamacpp' || profile === 'lmstudio'
    ? profile
    : 'other';
}
