import { z } from 'zod';
import { runnerKinds } from './names.ts';

// The bodies of the settings routes, as the service validates them (it adds one check of its own: PRD
// link hosts read as the runtime's host policy reads them).

const stringMap = z.record(z.string(), z.string());

export const runnerConfigSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be lowercase letters, digits, dots, hyphens or underscores'),
  name: z.string().min(1).max(200),
  kind: z.enum(runnerKinds),
  binary_path: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  extra_args: z.array(z.string()).default([]),
  env: stringMap.default({}),
});

/** An environment variable's name as a shell and every runner's config format take it. */
const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An MCP server's env: each entry a variable name and a value, a bad one refused by its name, never dropped. */
const mcpEnv = stringMap.default({}).superRefine((env, context) => {
  for (const [name, value] of Object.entries(env)) {
    if (!envName.test(name)) {
      context.addIssue({
        code: 'custom',
        path: [name],
        message: `env entry "${name}" is not a variable name: use letters, digits and _, not starting with a digit (NAME=value)`,
      });
    } else if (value.includes('\0')) {
      context.addIssue({
        code: 'custom',
        path: [name],
        message: `env entry "${name}" holds a NUL character`,
      });
    }
  }
});

export const mcpServerSchema = z.strictObject({
  name: z.string().min(1).max(200),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: mcpEnv,
  enabled: z.boolean().default(true),
  /** What `GET /api/settings` shows beside the masked values; accepted back and ignored. */
  env_set: z.record(z.string(), z.boolean()).optional(),
});

/**
 * Which hosts a task's PRD links may be fetched from, shaped like the runtime's config `web`: public hosts
 * always; loopback and private addresses only when `allow_private_network` is true or an `allowed_hosts`
 * entry names them (a name, `*.example.com`, an address or a CIDR range). The service also reads each entry
 * as the runtime's host policy does, and refuses one it cannot.
 */
export const prdLinksSchema = z.strictObject({
  allow_private_network: z.boolean().default(false),
  allowed_hosts: z.array(z.string().trim().min(1)).max(100).default([]),
});

// A key or token is one word: a space or line break is a paste gone wrong, refused here rather than failing
// every later call to the model or GitHub with an unclear 401.
export const secret = z.string().regex(/^\S+$/, 'must be one word: no spaces or line breaks');

/**
 * The model's base URL: an absolute http(s) URL. `api.openai.com/v1` (no scheme) is refused with the fix,
 * not stored to fail every later call: `new URL` would read `localhost:11434/v1` as scheme `localhost:`.
 */
export const modelBaseUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .superRefine((value, context) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {}
    if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return;
    const fix = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
      ? 'use http:// or https://'
      : `add https:// (or http:// for a local server): https://${value}`;
    context.addIssue({
      code: 'custom',
      message: `must be an absolute http(s) URL such as https://api.openai.com/v1; ${fix}`,
    });
  });

/**
 * Who authors the workbench's commits when the user's source repository (its config, then git's global
 * and system files) names nobody: a name and an email, each null for the next fallback (the environment's
 * GIT_AUTHOR_* / EMAIL, then "Keel Workbench").
 */
export const gitIdentitySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^<>\n\r\0]+$/, 'must not hold <, >, a line break or NUL (git refuses them in a name)')
    .nullable()
    .default(null),
  email: z.email('must be an email address such as ada@example.com').max(320).nullable().default(null),
});

/** `PUT /api/settings`: every field optional; the secrets are write-only (null clears them). */
export const settingsUpdateSchema = z.strictObject({
  model: z.string().trim().min(1).max(200).nullable().optional(),
  base_url: modelBaseUrl.nullable().optional(),
  api_key: secret.nullable().optional(),
  default_runner: z.string().min(1).optional(),
  runner_configs: z.array(runnerConfigSchema).optional(),
  mcp_servers: z.array(mcpServerSchema).optional(),
  github_token: secret.nullable().optional(),
  github_api_url: z.url().optional(),
  /** Read access to GitLab's API (scope read_api): the workbench follows merge requests with it. */
  gitlab_token: secret.nullable().optional(),
  gitlab_api_url: z.url().optional(),
  /** Replaced as a whole: a field left out takes its default. */
  prd_links: prdLinksSchema.optional(),
  /** Replaced as a whole: a field left out is null. */
  git_identity: gitIdentitySchema.optional(),
});

/** `POST /api/settings/test-connection`: unsaved values to test instead of the stored ones. */
export const connectionTestBody = z.strictObject({
  base_url: modelBaseUrl.optional(),
  api_key: secret.optional(),
  model: z.string().trim().min(1).max(200).optional(),
});

export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;
export type ConnectionTestInput = z.input<typeof connectionTestBody>;
export type RunnerConfigInput = z.input<typeof runnerConfigSchema>;
export type McpServerInput = z.input<typeof mcpServerSchema>;
