import { z } from 'zod';
import { runnerKinds } from './names.ts';

const stringMap = z.record(z.string(), z.string());

/** A runner config ("Runner Configs"): one kind with its own options. */
export const runnerConfig = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(runnerKinds),
  /** Path of the agent's binary; default: found on PATH. */
  binary_path: z.string().optional(),
  /** Overrides the global model for this runner. */
  model: z.string().optional(),
  extra_args: z.array(z.string()),
  env: stringMap,
});
export type RunnerConfig = z.infer<typeof runnerConfig>;

/** An MCP server as the settings show it: secret env values masked, `env_set` naming them. */
export const mcpServer = z.object({
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  env: stringMap,
  enabled: z.boolean(),
  env_set: z.record(z.string(), z.boolean()).optional(),
});
export type McpServer = z.infer<typeof mcpServer>;

export const gitIdentity = z.object({ name: z.string().nullable(), email: z.string().nullable() });
export type GitIdentity = z.infer<typeof gitIdentity>;

export const secretNames = ['api_key', 'github_token', 'gitlab_token'] as const;

/** `GET /api/settings`; the answer of `PUT /api/settings` adds `cleared_secrets` and `message`. */
export const settings = z.object({
  model: z.string().nullable(),
  base_url: z.string().nullable(),
  default_runner: z.string(),
  runner_configs: z.array(runnerConfig),
  mcp_servers: z.array(mcpServer),
  github_api_url: z.string(),
  /** GitLab's API root (default https://gitlab.com/api/v4): merge requests are followed through it. */
  gitlab_api_url: z.string(),
  /** Where PRD links may be fetched from besides public hosts. */
  prd_links: z.object({ allow_private_network: z.boolean(), allowed_hosts: z.array(z.string()) }),
  /** Who authors commits where the source repository's git names nobody. */
  git_identity: gitIdentity,
  api_key_set: z.boolean(),
  github_token_set: z.boolean(),
  gitlab_token_set: z.boolean(),
  /** The runner configs every installation has (one per kind, id = kind); a user config may override one. */
  builtin_runner_configs: z.array(runnerConfig),
  /** In a PUT's answer: secrets removed because their address changed without them (they are bound to it). */
  cleared_secrets: z.array(z.enum(secretNames)).optional(),
  /** In a PUT's answer, with `cleared_secrets`: what to send again. */
  message: z.string().optional(),
});
export type Settings = z.infer<typeof settings>;

export const runnerAvailability = z.object({
  kind: z.enum(runnerKinds),
  /** The runner config this answer is about. */
  config_id: z.string().optional(),
  usable: z.boolean(),
  version: z.string().optional(),
  /** Why it cannot be used here (binary missing, no model set, …). */
  reason: z.string().optional(),
});
export type RunnerAvailability = z.infer<typeof runnerAvailability>;

/** `GET /api/settings/check`. */
export const settingsCheck = z.object({
  /** Whether AI actions can run: neither `model` nor `api_key` is missing. */
  ready: z.boolean(),
  missing: z.array(z.string()),
  /** Why each missing item is missing, when the service knows (a secret cleared by an address change). */
  reasons: z.record(z.string(), z.string()),
  runners: z.array(runnerAvailability),
});
export type SettingsCheck = z.infer<typeof settingsCheck>;

/** `POST /api/settings/test-connection`. */
export const connectionTest = z.object({
  ok: z.boolean(),
  base_url: z.string().nullable(),
  models: z.array(z.string()),
  /** Whether the model is in the list; absent without a model. */
  model_found: z.boolean().optional(),
  /** The server family, when its answers tell: `ollama`, `vllm`, `llamacpp`, `lmstudio`. */
  server: z.string().optional(),
  /**
   * Each listed model with what the server says of it: its context window in tokens and whether it can call
   * tools (Ollama), where the server reports them. Absent when the test failed.
   */
  model_details: z
    .array(
      z.object({
        id: z.string(),
        context_length: z.number().int().positive().optional(),
        tools: z.boolean().optional(),
      }),
    )
    .optional(),
  error: z.object({ message: z.string() }).optional(),
});
export type ConnectionTest = z.infer<typeof connectionTest>;

/** `POST /api/settings/mcp-servers/{name}/health`: the saved server started, its tools listed, stopped. */
export const mcpHealth = z.object({
  name: z.string(),
  ok: z.boolean(),
  tool_count: z.number().int(),
  tools: z.array(z.string()),
  error: z.object({ message: z.string() }).optional(),
});
export type McpHealth = z.infer<typeof mcpHealth>;
