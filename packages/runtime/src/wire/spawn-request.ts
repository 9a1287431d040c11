import { z } from 'zod';
import { subAgentTypes } from './names.ts';

/** The longest timeout a spawn may ask for: one day. */
export const maxAgentTimeoutSeconds = 86_400;

/**
 * A spawn request (`POST /agent/spawn`, `runtime.agents.spawn`, the `spawn_agent` tool): `task` required;
 * `type` code, research, test or generic (default generic); `timeout` in seconds, null or absent meaning
 * the configured default (300); `workdir` for a spawn that no run makes (default the runtime's). The
 * descriptions are the tool's and the OpenAPI document's.
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
