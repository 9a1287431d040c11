import * as wire from '@keel/protocol/workbench';
import {
  gitIdentitySchema,
  mcpServerSchema,
  modelBaseUrl,
  runnerConfigSchema,
} from '@keel/protocol/workbench';
import { HostPolicy } from '@keel/runtime/internal';
import type { z } from 'zod';
import type { StoredSettings } from '../store/index.ts';

// The settings' record is the store's (store/records/settings.ts): the store imports no area.
export type { StoredSettings };

export { gitIdentitySchema, mcpServerSchema, modelBaseUrl, runnerConfigSchema };

/** Env names whose values are secrets: shown masked, kept when the mask is sent back. */
export const secretEnvName = /key|token|secret|password|auth/i;
/** What a secret env value is shown as. */
export const maskedValue = '••••';

/** An MCP server as `GET /api/settings` shows it: secret env values masked, `env_set` naming them. */
export interface McpServerView extends Omit<McpServerSetting, 'env_set'> {
  env_set: Record<string, true>;
}

/**
 * Which hosts a task's PRD links may be fetched from (the protocol's shape), each `allowed_hosts` entry read
 * as the runtime's host policy reads it, so what is saved is what the fetch understands.
 */
export const prdLinksSchema = wire.prdLinksSchema.extend({
  allowed_hosts: wire.prdLinksSchema.shape.allowed_hosts.superRefine((entries, ctx) => {
    try {
      new HostPolicy({ allowed_hosts: entries }, { setting: 'prd_links', fetcher: '', where: '' });
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
});
export type PrdLinksSettings = z.infer<typeof prdLinksSchema>;

/** `PUT /api/settings`: the protocol's body, with the PRD link hosts read as the runtime reads them. */
export const settingsUpdateSchema = wire.settingsUpdateSchema.extend({
  prd_links: prdLinksSchema.optional(),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;
export type McpServerSetting = z.infer<typeof mcpServerSchema>;
export type GitIdentitySettings = z.infer<typeof gitIdentitySchema>;

export const defaultSettings: StoredSettings = {
  model: null,
  base_url: null,
  default_runner: 'keel',
  runner_configs: [],
  mcp_servers: [],
  github_api_url: 'https://api.github.com',
  gitlab_api_url: 'https://gitlab.com/api/v4',
  prd_links: { allow_private_network: false, allowed_hosts: [] },
  git_identity: { name: null, email: null },
};

/** What `GET /api/settings` answers: the secrets only as "set or not". */
export interface SettingsView extends Omit<StoredSettings, 'mcp_servers'> {
  mcp_servers: McpServerView[];
  api_key_set: boolean;
  github_token_set: boolean;
  gitlab_token_set: boolean;
  /** The runner configs every installation has (one per kind, id = kind); a user config may override one. */
  builtin_runner_configs: z.infer<typeof runnerConfigSchema>[];
}
