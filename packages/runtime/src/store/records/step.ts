import type { ErrorObject } from '../../errors/index.ts';
import type { JsonObject, JsonValue } from './json.ts';

// Steps of a run and the checkpoints taken after them.

/** `context`: an agent's history pruned or compacted to fit its model (the checkpoint after it holds the result). */
export type StepKind = 'model_turn' | 'tool_batch' | 'context' | 'tool' | 'approval' | 'gate' | 'node';
export type StepStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'waiting' | 'abandoned';

/** A step: a model turn, a tool batch, an approval, a gate or a non-agent node execution. */
export interface Step {
  id: string;
  run_id: string;
  /** The workflow node it belongs to. */
  node_id: string;
  kind: StepKind;
  status: StepStatus;
  attempt: number;
  /**
   * The worker that ran it (`keel worker`, keel-web or an SDK runtime: see newWorkerId); null for steps
   * recorded before worker ids were.
   */
  worker_id: string | null;
  detail: JsonObject;
  error: ErrorObject | null;
  started_at: string;
  ended_at: string | null;
}

export interface NewStep {
  run_id: string;
  node_id: string;
  kind: StepKind;
  /** Default: the run's current attempt. */
  attempt?: number;
  /** Default: the worker holding the run's lease (the one executing it), read by the same statement. */
  worker_id?: string;
  detail?: JsonObject;
}

export interface Checkpoint {
  id: string;
  run_id: string;
  step_id: string | null;
  /** The run's event cursor when the checkpoint was taken: history up to here belongs to it. */
  seq: number;
  /** The scheduler's serialised state: enough to resume the run in any process. */
  state: JsonValue;
  created_at: string;
}

export interface NewCheckpoint {
  run_id: string;
  step_id: string | null;
  state: JsonValue;
  /**
   * The state decodes on its own, without the checkpoints before it: `checkpointChain` starts at the
   * latest such one. Default false (a chain then starts at the run's first checkpoint).
   */
  whole?: boolean;
  /**
   * Also ends the step `step_id` as `succeeded`, in the same transaction, with finishStep's checks: the
   * step and the checkpoint after it are stored together or not at all.
   */
  finishStep?: boolean;
}
