import { z } from 'zod';
import { InvalidParamsError } from '../errors/index.ts';
import type { SubAgentType } from '../store/index.ts';
import { subAgentTypes } from './agent-types.ts';

/** The longest timeout a spawn may ask for: one day. */
export const maxAgentTimeoutSeconds = 86_400;

/** The spec's defaults (section 8): five sub-agents at once, 300 seconds each. */
export const defaultAgentLimits = { max_concurrent: 5, timeout_seconds: 300 } as const;

/**
 * A spawn request (`POST /agent/spawn`, `runtime.agents.spawn`): `task` required; `type` code, research,
 * test or generic (default generic); `timeout` in seconds, null or absent meaning the configured default
 * (300); `workdir` for a spawn that no run makes (default the runtime's).
 */
export const spawnRequestSchema = z.object({
  task: z
    .string()
    .min(1)
    .max(100_000)
    .refine((task) => task.trim().length > 0, 'must not be blank')
    .describe('What the sub-agent should do: complete on its own, since it does not see your conversation.'),
  type: z
    .enum(subAgentTypes)
    .optional()
    .describe(
      'research: reads and searches only; test: reads and runs commands; code: reads and edits files; ' +
        'generic (default): the coding tools.',
    ),
  timeout: z
    .number()
    .positive()
    .max(maxAgentTimeoutSeconds)
    .nullable()
    .optional()
    .describe('Seconds the sub-agent may take before it ends with status timeout (default 300).'),
  workdir: z.string().min(1).optional().describe('The directory it works in (default the runtime’s).'),
});

export type SpawnRequest = z.input<typeof spawnRequestSchema>;

export interface ParsedSpawnRequest {
  task: string;
  type: SubAgentType;
  /** Null: the configured default. */
  timeout: number | null;
  workdir?: string;
}

/** Validates a spawn request; INVALID_PARAMS names the field. */
export function parseSpawnRequest(request: unknown): ParsedSpawnRequest {
  const parsed = spawnRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
    }));
    throw new InvalidParamsError(
      `Invalid spawn request: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}.`,
      { issues },
    );
  }
  const { task, type, timeout, workdir } = parsed.data;
  return { task, type: type ?? 'generic', timeout: timeout ?? null, ...(workdir ? { workdir } : {}) };
}
