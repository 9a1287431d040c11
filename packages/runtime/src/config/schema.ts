import { z } from 'zod';

/** The configuration file's shape (spec section 2). Unknown keys are kept, so newer files still load. */
export const configSchema = z.looseObject({
  model: z.string().optional(),
  model_base_url: z.string().optional(),
  /** Thinking mode by default (a request's `enable_thinking` wins). */
  enable_thinking: z.boolean().optional(),
  thinking_budget: z.number().int().positive().optional(),
  skills: z
    .looseObject({
      enabled: z.array(z.string()).optional(),
      disabled: z.array(z.string()).optional(),
      custom_dirs: z.array(z.string()).optional(),
    })
    .optional(),
  mcp: z
    .looseObject({
      servers: z
        .array(
          z.looseObject({
            name: z.string(),
            transport: z.enum(['stdio', 'http']),
            command: z.string().optional(),
            args: z.array(z.string()).optional(),
            env: z.record(z.string(), z.string()).optional(),
            url: z.string().optional(),
            headers: z.record(z.string(), z.string()).optional(),
            /** How long the server may take to start and answer `initialize` (default 30000). */
            connect_timeout_ms: z.number().int().positive().optional(),
            /** How long one tool call may take (default 120000). */
            call_timeout_ms: z.number().int().positive().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  security: z
    .looseObject({
      allowed_commands: z.array(z.string()).optional(),
      blocked_commands: z.array(z.string()).optional(),
      strict_read_boundary: z.boolean().optional(),
      allowed_roots: z.array(z.string()).optional(),
      /** Tools whose calls wait for a human's approval before they run, e.g. ["write_file", "edit_file"]. */
      require_approval: z.array(z.string()).optional(),
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
      max_tokens: z.number().int().nonnegative().optional(),
      max_cost_usd: z.number().nonnegative().optional(),
      max_steps: z.number().int().nonnegative().optional(),
      loop_detect_turns: z.number().int().positive().optional(),
      loop_similarity_threshold: z.number().min(0).max(1).optional(),
    })
    .optional(),
  /**
   * Model prices in USD per million tokens, by model name (or the prefix of its dated variants), for the
   * circuit breaker's cost estimate; over the built-in table of well-known hosted models.
   */
  pricing: z
    .record(
      z.string(),
      z.object({
        input_per_million: z.number().nonnegative(),
        output_per_million: z.number().nonnegative(),
      }),
    )
    .optional(),
  rate_limit: z.looseObject({ enabled: z.boolean().optional() }).optional(),
  /** Where runs live: SQLite (default, `<runtime dir>/keel.db`) or PostgreSQL (`@keel/store-postgres`). */
  store: z
    .discriminatedUnion('kind', [
      z.looseObject({ kind: z.literal('sqlite'), path: z.string().min(1).optional() }),
      z.looseObject({
        kind: z.literal('postgres'),
        url: z.string().min(1),
        schema: z
          .string()
          .regex(/^[a-z_][a-z0-9_]*$/)
          .optional(),
      }),
    ])
    .optional(),
  /** Where artifact payloads live: files (default, `<runtime dir>/artifacts`) or an S3-compatible bucket. */
  artifacts: z
    .discriminatedUnion('kind', [
      z.looseObject({ kind: z.literal('file'), dir: z.string().min(1).optional() }),
      z.looseObject({
        kind: z.literal('s3'),
        bucket: z.string().min(1),
        prefix: z.string().optional(),
        endpoint: z.string().optional(),
        region: z.string().optional(),
        force_path_style: z.boolean().optional(),
      }),
    ])
    .optional(),
  /** Durable run settings. */
  runs: z
    .looseObject({
      /** How long a worker's claim on a running run lasts without renewal (default 15000). */
      lease_ms: z.number().int().min(500).optional(),
      /** Time budget of every run in ms (default 0: none). */
      max_duration_ms: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

export type RuntimeConfig = z.infer<typeof configSchema>;
