import type { ErrorObject } from '../../errors/index.ts';
import type { JsonObject, JsonValue } from './json.ts';

// The run record: its status, usage and lease, and what creating, listing, moving and claiming one take.

/**
 * queued: waiting for a worker to claim it; running: a worker holds its lease; waiting: needs an approval
 * or an answer, no worker holds it; paused: stopped at a safe boundary on request; succeeded, failed and
 * cancelled are final.
 */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'paused' | 'succeeded' | 'failed' | 'cancelled';

export const runStatuses: readonly RunStatus[] = [
  'queued',
  'running',
  'waiting',
  'paused',
  'succeeded',
  'failed',
  'cancelled',
];

export const finishedStatuses: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

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
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
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
}

export interface RunQuery {
  status?: RunStatus;
  /** Default 20. */
  limit?: number;
  /** Page cursor: only runs whose id sorts before this one (newest first). */
  before?: string;
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
