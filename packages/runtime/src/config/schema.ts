import { z } from 'zod';

/** The configuration file's shape (spec section 2). Unknown keys are kept, so newer files still load. */
export const configSchema = z.looseObject({
  model: z.string().optional(),
  model_base_url: z.string().optional(),
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
  rate_limit: z.looseObject({ enabled: z.boolean().optional() }).optional(),
});

export type RuntimeConfig = z.infer<typeof configSchema>;
