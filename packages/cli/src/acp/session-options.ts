import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { loadConfig, readEnv, resolveModelSettings } from '@keel/runtime/internal';
import { readOnlyExclusions } from './mode-tools.ts';

/** What an editor can choose per session: the mode (tools the runs may use) and the model. */
export interface SessionChoices {
  mode: ModeId;
  /** The model the session's runs use; undefined: the configured one. */
  model?: string;
  /** The models offered: the configured one first, then those the endpoint lists. */
  models: string[];
}

export type ModeId = 'default' | 'read-only';

const modes: SessionModeState['availableModes'] = [
  { id: 'default', name: 'Default', description: 'Edits and commands as Keel’s configuration allows' },
  { id: 'read-only', name: 'Read-only', description: 'Looks and plans: no edits, no commands' },
];

export function isModeId(id: string): id is ModeId {
  return modes.some((mode) => mode.id === id);
}

export function modesOf(choices: SessionChoices): SessionModeState {
  return { currentModeId: choices.mode, availableModes: modes };
}

export function configOptionsOf(choices: SessionChoices): SessionConfigOption[] {
  const current = choices.model ?? choices.models[0];
  if (!current) return [];
  return [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: current,
      options: choices.models.map((model) => ({ value: model, name: model })),
    },
  ];
}

/**
 * What a run of the session adds to its request: its model and, read-only, the tools it leaves out (by
 * their traits, see mode-tools.ts); the run's sub-agents inherit them.
 */
export function runRequestOf(choices: SessionChoices): { model?: string; exclude_tools?: string[] } {
  return {
    ...(choices.model ? { model: choices.model } : {}),
    ...(choices.mode === 'read-only' ? { exclude_tools: readOnlyExclusions() } : {}),
  };
}

/**
 * The configured model, then the models its endpoint lists (`GET {base_url}/models`, at most 50, given
 * two seconds): what the editor's model picker offers. The endpoint gets the key it is configured with,
 * nothing more; when it cannot be asked, only the configured model is offered.
 */
export async function availableModels(env: NodeJS.ProcessEnv, workdir: string): Promise<string[]> {
  let settings: ReturnType<typeof resolveModelSettings>;
  try {
    const runtimeEnv = readEnv(env);
    settings = resolveModelSettings({}, {}, loadConfig(runtimeEnv.home, workdir), runtimeEnv);
  } catch {
    return [];
  }
  const listed: string[] = [];
  if (settings.baseURL) {
    try {
      const response = await fetch(`${settings.baseURL.replace(/\/+$/, '')}/models`, {
        headers: settings.apiKey === 'no-key' ? {} : { authorization: `Bearer ${settings.apiKey}` },
        signal: AbortSignal.timeout(2000),
      });
      const body = (await response.json()) as { data?: { id?: unknown }[] };
      for (const entry of body.data ?? []) if (typeof entry.id === 'string') listed.push(entry.id);
    } catch {
      // Not every endpoint lists its models; the configured one is enough.
    }
  }
  return [...new Set([settings.model, ...listed])].slice(0, 50);
}
