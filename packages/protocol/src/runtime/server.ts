import { z } from 'zod';
import { skillSources, toolTraitKinds, trustKinds } from './names.ts';

// What keel-web answers about itself: skills, configuration, totals and the console's info.

/** A skill as every surface lists it (spec section 2, "Skill"). */
export const skill = z.object({
  name: z.string(),
  description: z.string(),
  /** Whether a run in the asked workdir gets it. */
  enabled: z.boolean(),
  source: z.enum(skillSources),
});
export type Skill = z.infer<typeof skill>;

/** `GET /skills/{name}`: the skill with its SKILL.md body and its directory. */
export const skillDetail = skill.extend({ documentation: z.string(), path: z.string() });
export type SkillDetail = z.infer<typeof skillDetail>;

/** A SKILL.md that was skipped, or a setting that names no skill. */
export const skillWarning = z.object({ path: z.string(), message: z.string() });
export type SkillWarning = z.infer<typeof skillWarning>;

/** `GET /skills`. */
export const skillList = z.object({ skills: z.array(skill), warnings: z.array(skillWarning) });
export type SkillList = z.infer<typeof skillList>;

/** `GET /metrics`: totals of the server's default store, and the seconds since the server started. */
export const serverMetrics = z.object({
  total_runs: z.number().int(),
  total_tokens: z.number().int(),
  total_cost_usd: z.number(),
  uptime_seconds: z.number().int(),
});
export type ServerMetrics = z.infer<typeof serverMetrics>;

const strings = z.array(z.string()).optional();

/**
 * `GET /config`, `PUT /config`: the effective configuration (global under project) with its secrets hidden
 * (`"***"`; `model_api_key` left out). The keys of the spec's configuration table are spelled out, loosely
 * (the runtime checked the files); every other key the files hold passes as it is.
 */
export const effectiveConfig = z.looseObject({
  model: z.string().optional(),
  model_base_url: z.string().optional(),
  enable_thinking: z.boolean().optional(),
  thinking_budget: z.number().optional(),
  skills: z.looseObject({ enabled: strings, disabled: strings, custom_dirs: strings }).optional(),
  mcp: z
    .looseObject({
      servers: z
        .array(
          z.looseObject({
            name: z.string(),
            transport: z.enum(['stdio', 'http', 'sse']),
            command: z.string().optional(),
            args: strings,
            env: z.record(z.string(), z.string()).optional(),
            url: z.string().optional(),
            headers: z.record(z.string(), z.string()).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  security: z
    .looseObject({
      allowed_commands: strings,
      blocked_commands: strings,
      strict_read_boundary: z.boolean().optional(),
    })
    .optional(),
  sandbox: z
    .looseObject({
      enabled: z.boolean().optional(),
      backend: z.string().optional(),
      network_mode: z.string().optional(),
    })
    .optional(),
  circuit_breaker: z
    .looseObject({
      enabled: z.boolean().optional(),
      max_tokens: z.number().optional(),
      max_cost_usd: z.number().optional(),
      max_steps: z.number().optional(),
    })
    .optional(),
  rate_limit: z.looseObject({ enabled: z.boolean().optional() }).optional(),
});
export type EffectiveConfig = z.infer<typeof effectiveConfig>;

/** Where commands run. */
export const sandboxStatus = z.object({
  active: z.boolean(),
  /** The backend, or null when commands run unconfined. */
  backend: z.string().nullable(),
  network: z.enum(['none', 'host']),
  /** Why, in a sentence a user can act on. */
  reason: z.string(),
});
export type SandboxStatus = z.infer<typeof sandboxStatus>;

/** A key of an untrusted project file that did not apply. */
export const ignoredConfigKey = z.object({
  /** Dotted key path as written, e.g. `sandbox.enabled`. */
  key: z.string(),
  /** The value it asked for, secrets masked. */
  value: z.unknown(),
  kind: z.enum(trustKinds),
  why: z.string(),
});
export type IgnoredConfigKey = z.infer<typeof ignoredConfigKey>;

/** `GET /config/status`: whether a run has what it needs, and what the project file could not set. */
export const configStatus = z.object({
  ready: z.boolean(),
  /** What a run still needs: `model`, `model_api_key`. */
  missing: z.array(z.string()),
  model: z.string().nullable(),
  /** Null: the client's hosted default endpoint. */
  model_base_url: z.string().nullable(),
  sandbox: sandboxStatus,
  project_config: z.object({
    file: z.string(),
    trusted: z.boolean(),
    ignored: z.array(ignoredConfigKey),
    /** The command that trusts the folder, when keys were ignored. */
    how_to_trust: z.string().optional(),
  }),
});
export type ConfigStatus = z.infer<typeof configStatus>;

/** A built-in tool of the runtime, with what it does (its traits' kind). */
export const toolInfo = z.object({ name: z.string(), kind: z.enum(toolTraitKinds) });
export type ToolInfo = z.infer<typeof toolInfo>;

/** `GET /console/info`. */
export const serverInfo = z.object({ version: z.string(), workdir: z.string(), tools: z.array(toolInfo) });
export type ServerInfo = z.infer<typeof serverInfo>;
