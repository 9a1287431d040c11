import { z } from 'zod';
import { timestamp } from './common.ts';
import { subAgentStatuses, subAgentTypes } from './names.ts';

// Sub-agents (`/agent`): a task worked on in the background, as a durable run of its own.

const subAgentStatus = z.enum(subAgentStatuses);

/** `GET /agent/{agent_id}`, and `POST /agent/{agent_id}/resume`: the sub-agent record, read from its latest run. */
export const subAgent = z.object({
  agent_id: z.string(),
  status: subAgentStatus,
  /** The answer once completed; an empty string once it ended otherwise; absent until it ends. */
  output: z.string().optional(),
  error: z.string().nullable(),
  /** When it was first spawned (ISO 8601 with `+00:00`). */
  created_at: timestamp,
  /** When its latest run ended; null until then. */
  completed_at: timestamp.nullable(),
  type: z.enum(subAgentTypes),
  task: z.string(),
  /** Its latest run. */
  run_id: z.string(),
  parent_run_id: z.string().nullable(),
  /** Seconds. */
  timeout: z.number(),
});
export type SubAgent = z.infer<typeof subAgent>;

/** `POST /agent/spawn`. */
export const agentSpawned = subAgent.pick({ agent_id: true, status: true, created_at: true, run_id: true });
export type AgentSpawned = z.infer<typeof agentSpawned>;

/** `DELETE /agent/{agent_id}`: `killed` is false for one that had already ended, which keeps its status. */
export const agentKilled = z.object({ agent_id: z.string(), killed: z.boolean(), status: subAgentStatus });
export type AgentKilled = z.infer<typeof agentKilled>;
