import { WorkbenchError } from '../errors.ts';
import type { ModelSetting, RunnerConfig } from '../runners/index.ts';
import { type SettingsRecords, storeFailure } from '../store/index.ts';
import {
  defaultSettings,
  type McpServerSetting,
  type McpServerView,
  maskedValue,
  type SettingsUpdate,
  type SettingsView,
  type StoredSettings,
  secretEnvName,
} from './schema.ts';
import {
  clearedReasons,
  patchSecrets,
  redirectsModel,
  usableSecrets,
  withLegacyBindings,
} from './secret-binding.ts';
import { type SecretName, type Secrets, SecretsFile } from './secrets.ts';

/** What `PUT /api/settings` answers: the settings, and the secrets it removed because their URL changed. */
export interface SettingsUpdateResult extends SettingsView {
  cleared_secrets: SecretName[];
  /** Present when cleared_secrets is not empty: what happened and what to send. */
  message?: string;
}

/** What `GET /api/settings/check` says besides the runners. */
export interface SettingsCheck {
  /** Whether AI actions can run: neither `model` nor `api_key` is missing. */
  ready: boolean;
  /** `model`; `api_key` / `github_token` when a URL change cleared them. */
  missing: string[];
  /** Why each missing item is missing. */
  reasons: Record<string, string>;
}

const ignore = () => {};

/**
 * Settings: one row in the store (`store.settings`) for the plain fields, the secrets in their own 0600 file.
 * Every read and write goes through the async contract; nothing is kept in between.
 */
export class SettingsService {
  readonly #records: SettingsRecords;
  readonly #secrets: SecretsFile;
  readonly #builtins: RunnerConfig[];
  /** The change under way: the next waits for it. */
  #updating: Promise<void> = Promise.resolve();

  constructor(records: SettingsRecords, secretsPath: string, builtins: RunnerConfig[]) {
    this.#records = records;
    this.#secrets = new SecretsFile(secretsPath);
    this.#builtins = builtins;
  }

  /** The stored settings, read through the contract (defaults for what was never set). */
  async stored(): Promise<StoredSettings> {
    return { ...defaultSettings, ...(await this.#records.read()) };
  }

  /** The secrets usable now: each only while its URL is the one it was saved with. */
  async secrets(): Promise<{ api_key?: string; github_token?: string; gitlab_token?: string }> {
    const stored = await this.stored();
    return usableSecrets(this.#read(stored), stored);
  }

  async view(): Promise<SettingsView> {
    const stored = await this.stored();
    const secrets = usableSecrets(this.#read(stored), stored);
    return {
      ...stored,
      mcp_servers: stored.mcp_servers.map(maskServer),
      api_key_set: Boolean(secrets.api_key),
      github_token_set: Boolean(secrets.github_token),
      gitlab_token_set: Boolean(secrets.gitlab_token),
      builtin_runner_configs: this.#builtins,
    };
  }

  /** Changes the settings; one change at a time in this process, so a change never interleaves another. */
  update(patch: SettingsUpdate): Promise<SettingsUpdateResult> {
    const update = this.#updating.then(() => this.#update(patch));
    this.#updating = update.then(ignore, ignore);
    return update;
  }

  async #update(patch: SettingsUpdate): Promise<SettingsUpdateResult> {
    const current = await this.stored();
    const next: StoredSettings = { ...current };
    if (patch.model !== undefined) next.model = patch.model;
    if (patch.base_url !== undefined) next.base_url = patch.base_url;
    if (patch.runner_configs !== undefined) next.runner_configs = patch.runner_configs as RunnerConfig[];
    if (patch.mcp_servers !== undefined) next.mcp_servers = unmask(patch.mcp_servers, current.mcp_servers);
    if (patch.github_api_url !== undefined) next.github_api_url = patch.github_api_url;
    if (patch.gitlab_api_url !== undefined) next.gitlab_api_url = patch.gitlab_api_url;
    if (patch.prd_links !== undefined) next.prd_links = patch.prd_links;
    if (patch.git_identity !== undefined) next.git_identity = patch.git_identity;
    if (patch.default_runner !== undefined) next.default_runner = patch.default_runner;
    const ids = next.runner_configs.map((config) => config.id);
    const twice = ids.find((id, index) => ids.indexOf(id) !== index);
    if (twice) {
      throw new WorkbenchError('INVALID_PARAMS', `runner_configs: id '${twice}' is used twice.`, {
        field: 'runner_configs',
      });
    }
    const names = next.mcp_servers.map((server) => server.name);
    const nameTwice = names.find((name, index) => names.indexOf(name) !== index);
    if (nameTwice) {
      throw new WorkbenchError('INVALID_PARAMS', `mcp_servers: name '${nameTwice}' is used twice.`, {
        field: 'mcp_servers',
      });
    }
    this.#configById(next.default_runner, this.#allConfigs(next), 'default_runner');
    // The row and the secrets file change together or not at all (a full disk, a read-only database), and
    // no file is written inside a database transaction: the row first, then the file; when the file cannot
    // be written, the row is put back as it was.
    const before = this.#read(current);
    // A secret goes only where it was saved for: an address changed without its secret clears the secret.
    const { secrets, cleared } = patchSecrets(before, patch, next);
    await this.#records.write(next);
    if (JSON.stringify(secrets) !== JSON.stringify(before)) {
      try {
        this.#secrets.write(secrets);
      } catch (error) {
        await this.#records.write(current);
        const what = 'The secrets file could not be written; the settings are as they were';
        throw (
          storeFailure(error, what) ??
          new WorkbenchError('STORE_ERROR', `${what}: ${(error as Error).message}`, {
            reason: 'secrets_file',
          })
        );
      }
    }
    return {
      ...(await this.view()),
      cleared_secrets: cleared,
      ...(cleared.length > 0 ? { message: cleared.map((name) => clearedReasons[name]).join(' ') } : {}),
    };
  }

  /** An MCP server by name (its env as stored), or 404 MCP_SERVER_NOT_FOUND. */
  async mcpServer(name: string): Promise<McpServerSetting> {
    const server = (await this.stored()).mcp_servers.find((entry) => entry.name === name);
    if (!server) {
      throw new WorkbenchError('MCP_SERVER_NOT_FOUND', `No MCP server named '${name}' in the settings.`, {
        name,
      });
    }
    return server;
  }

  /** Every runner config: the user's, then the built-in ones they do not override. */
  async runnerConfigs(): Promise<RunnerConfig[]> {
    return this.#allConfigs(await this.stored());
  }

  /** A runner config by id, or 422 UNKNOWN_RUNNER naming the field that named it. */
  async runnerConfig(id: string, field = 'runner'): Promise<RunnerConfig> {
    return this.#configById(id, await this.runnerConfigs(), field);
  }

  /** Checks that `id` names a runner config (for project and task fields). */
  async assertRunner(id: string | null | undefined, field: string): Promise<void> {
    if (id) await this.runnerConfig(id, field);
  }

  /**
   * The model settings for a run with `config`, or 409 MODEL_NOT_CONFIGURED saying what to set: every AI
   * action needs a model, from the runner config or from the settings.
   */
  async model(config?: RunnerConfig): Promise<ModelSetting> {
    return this.#model(await this.stored(), config);
  }

  /** What is missing, and why (for `GET /api/settings/check`). */
  async check(): Promise<SettingsCheck> {
    const stored = await this.stored();
    const secrets = this.#read(stored);
    const reasons: Record<string, string> = {};
    if (!stored.model) reasons.model = 'No AI model is set: PUT /api/settings {"model": "<model name>"}.';
    for (const name of secrets.cleared ?? []) reasons[name] = clearedReasons[name];
    const missing = Object.keys(reasons);
    return { ready: !missing.includes('model') && !missing.includes('api_key'), missing, reasons };
  }

  #model(stored: StoredSettings, config?: RunnerConfig): ModelSetting {
    const model = config?.model ?? stored.model;
    if (!model) {
      throw new WorkbenchError(
        'MODEL_NOT_CONFIGURED',
        'No AI model is configured: set one with PUT /api/settings {"model": "<model name>"} (and base_url, api_key).',
        { missing: ['model'], fix: 'PUT /api/settings' },
      );
    }
    // The key goes only to the base_url it was saved with: a runner config whose environment names another
    // endpoint gets none (it brings its own in its env).
    const apiKey = redirectsModel(config, stored.base_url)
      ? undefined
      : usableSecrets(this.#read(stored), stored).api_key;
    return {
      model,
      ...(stored.base_url ? { baseUrl: stored.base_url } : {}),
      ...(apiKey ? { apiKey } : {}),
    };
  }

  /**
   * secrets.json, each secret with the URL it is bound to. A file written before secrets were bound gets
   * them now, bound to the URLs in force (saved if the disk lets us; else again at the next read).
   */
  #read(settings: StoredSettings): Secrets {
    const { secrets, changed } = withLegacyBindings(this.#secrets.read(), settings);
    if (changed) {
      try {
        this.#secrets.write(secrets);
      } catch {}
    }
    return secrets;
  }

  #allConfigs(settings: StoredSettings): RunnerConfig[] {
    const own = settings.runner_configs as RunnerConfig[];
    return [...own, ...this.#builtins.filter((builtin) => !own.some((config) => config.id === builtin.id))];
  }

  #configById(id: string, configs: RunnerConfig[], field: string): RunnerConfig {
    return runnerConfigById(configs, id, field);
  }
}

/** A runner config of `configs` by id, or 422 UNKNOWN_RUNNER naming the field that named it. */
export function runnerConfigById(configs: RunnerConfig[], id: string, field: string): RunnerConfig {
  const found = configs.find((config) => config.id === id);
  if (!found) {
    throw new WorkbenchError('UNKNOWN_RUNNER', `${field}: no runner config has id '${id}'.`, {
      field,
      runner: id,
      available: configs.map((config) => config.id),
    });
  }
  return found;
}

/** Secret-looking env values (`/key|token|secret|password|auth/i` in the name) as the mask, named in `env_set`. */
function maskServer({ env_set: _stored, ...server }: McpServerSetting): McpServerView {
  const env: Record<string, string> = {};
  const set: Record<string, true> = {};
  for (const [name, value] of Object.entries(server.env)) {
    if (secretEnvName.test(name) && value) {
      env[name] = maskedValue;
      set[name] = true;
    } else env[name] = value;
  }
  return { ...server, env, env_set: set };
}

/**
 * The mask sent back unchanged keeps the stored value (of the server of that name); a mask with nothing
 * stored behind it is a 400 naming the entry, never saved as the value.
 */
function unmask(servers: McpServerSetting[], stored: McpServerSetting[]): McpServerSetting[] {
  return servers.map(({ env_set: _shown, ...server }, index) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.env)) {
      if (value !== maskedValue) {
        env[name] = value;
        continue;
      }
      const kept = stored.find((entry) => entry.name === server.name)?.env[name];
      if (kept === undefined) {
        throw new WorkbenchError(
          'INVALID_PARAMS',
          `mcp_servers.${index}.env.${name}: "${maskedValue}" is the mask of a stored value, but the server '${server.name}' has no stored ${name}: send the value itself.`,
          { field: `mcp_servers.${index}.env.${name}` },
        );
      }
      env[name] = kept;
    }
    return { ...server, env };
  });
}
