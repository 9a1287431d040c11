import type { ErrorObject } from '../../errors/index.ts';
import type { JsonObject, JsonValue } from './json.ts';

// The run record: its status, usage and lease, and what creating, listing, moving and claiming one take.

// The statuses are the wire's (one definition, `src/wire/names.ts`).
import type { RunStatus } from '../../wire/index.ts';

export { finishedStatuses, type RunStatus, runStatuses } from '../../wire/index.ts';

export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface Run {
  id: string;
  status: RunStatus;
  session_id: string | null;
  workdir: string;
  prompt: string;
  /** The workflow graph the run executes, stored with it so any process can resume it. */
  workflow: JsonValue;
  /** The run's input (the validated run request without secrets). */
  input: JsonObject;
  /** The final result once succeeded (the agent's run result, or the workflow's output). */
  result: JsonValue | null;
  error: ErrorObject | null;
  /** Sequence number of the run's last event: the cursor a caught-up reader holds. */
  last_seq: number;
  /** 1 for the first execution; each retry adds one. */
  attempt: number;
  /** Set on a fork: the run and checkpoint it was taken from. */
  forked_from: { run_id: string; checkpoint_id: string } | null;
  /** The worker holding the run while it is running, and until when. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  usage: RunUsage;
  cost_usd: number;
  /** The run that spawned this one as its sub-agent; null for a run nobody spawned. */
  parent_run_id: string | null;
  /** Set when the run is (one run of) a sub-agent; see RunAgent. */
  agent: RunAgent | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
}

/** The kinds of sub-agent (spec section 4, `POST /agent/spawn`): each has its own tools and prompt. */
export type SubAgentType = 'code' | 'research' | 'test' | 'generic';

/**
 * What makes a run a sub-agent's. A sub-agent is a durable child run: queued, claimed, checkpointed and
 * recovered like any run. Resuming it starts a new run with the same `agent_id`.
 */
export interface RunAgent {
  /** The sub-agent's id (`agt_…`), the same on each of its runs. */
  agent_id: string;
  type: SubAgentType;
  /** The task it was spawned with. */
  task: string;
  /** Its time limit, counted from this run's creation. */
  timeout_seconds: number;
  /** When this run must have ended (ISO 8601, UTC): past it the run ends with TIMEOUT. */
  deadline_at: string;
  /** When the sub-agent was first spawned: its record's `created_at` on every run of it. */
  spawned_at: string;
  /** The earlier run of the sub-agent that this one resumes; null for the first. */
  resumes: string | null;
}

export interface NewRun {
  session_id: string | null;
  workdir: string;
  prompt: string;
  workflow: JsonValue;
  input: JsonObject;
  /** Default `queued`. */
  status?: RunStatus;
  forked_from?: { run_id: string; checkpoint_id: string } | null;
  parent_run_id?: string | null;
  agent?: RunAgent | null;
  /**
   * For a sub-agent run: create it only while fewer than this many sub-agent runs are active (queued,
   * running, waiting or paused), counted and inserted as one atomic step; else AgentLimitReachedError.
   */
  agent_limit?: number;
}

export interface RunQuery {
  status?: RunStatus;
  /** Default 20. */
  limit?: number;
  /** Page cursor: only runs whose id sorts before this one (newest first). */
  before?: string;
  /** Only the sub-agent runs this run spawned. */
  parent_run_id?: string;
  /** Only the runs of this sub-agent (a resumed sub-agent has one per start), newest first. */
  agent_id?: string;
  /** Only sub-agent runs that have not ended (queued, running, waiting, paused). */
  active_agents?: boolean;
}

/** A conditional status change; see `RunStore.transition`. */
export interface RunTransition {
  /** The change happens only if the run is in one of these states, else InvalidStateError. */
  from: readonly RunStatus[];
  to: RunStatus;
  /** When set, the change also requires the run's lease to be held by this owner, else InvalidStateError. */
  owner?: string;
  error?: ErrorObject | null;
  result?: JsonValue | null;
  /** Releases the lease (lease_owner and lease_expires_at become null). Default: true unless `to` is running. */
  releaseLease?: boolean;
  /** Adds one to `attempt` (a retry). */
  nextAttempt?: boolean;
}

export interface Claim {
  /** Who claims: `host:pid:random`, unique per worker. */
  owner: string;
  leaseMs: number;
}

/** An orphaned run taken over by a worker (RunStore.claimOrphan). */
export interface OrphanClaim {
  run: Run;
  /** The worker whose lease ran out. */
  lost_owner: string | null;
}
