import { z } from 'zod';
import { errorObject, jsonObject, timestamp, usage } from './common.ts';
import { runMetadata, toolTrace } from './events.ts';
import { runStatuses, stepKinds, stepStatuses, subAgentTypes } from './names.ts';

export const runStatus = z.enum(runStatuses);

/** What makes a run a sub-agent's: a durable child run; resuming it starts a new run with the same `agent_id`. */
export const runAgent = z.object({
  /** The sub-agent's id (`agt_…`), the same on each of its runs. */
  agent_id: z.string(),
  type: z.enum(subAgentTypes),
  /** The task it was spawned with. */
  task: z.string(),
  timeout_seconds: z.number(),
  /** When this run must have ended: past it the run ends with TIMEOUT. */
  deadline_at: timestamp,
  /** When the sub-agent was first spawned. */
  spawned_at: timestamp,
  /** The earlier run of the sub-agent that this one resumes; null for the first. */
  resumes: z.string().nullable(),
});
export type RunAgent = z.infer<typeof runAgent>;

/** A run as the store keeps it (`GET /runtime/runs/{id}/timeline`'s `run`). */
export const runRecord = z.object({
  id: z.string(),
  status: runStatus,
  session_id: z.string().nullable(),
  workdir: z.string(),
  prompt: z.string(),
  /** The workflow graph the run executes, stored with it so any process can resume it. */
  workflow: z.unknown(),
  /** The validated run request, without secrets. */
  input: jsonObject,
  /** The final result once succeeded (the agent's run result, or the workflow's output). */
  result: z.unknown(),
  error: errorObject.nullable(),
  /** The sequence number of the run's last event: the cursor a caught-up reader holds. */
  last_seq: z.number().int(),
  /** 1 for the first execution; each retry adds one. */
  attempt: z.number().int(),
  forked_from: z.object({ run_id: z.string(), checkpoint_id: z.string() }).nullable(),
  /** The worker holding the run while it is running, and until when. */
  lease_owner: z.string().nullable(),
  lease_expires_at: timestamp.nullable(),
  usage,
  cost_usd: z.number(),
  /** The run that spawned this one as its sub-agent; null for a run nobody spawned. */
  parent_run_id: z.string().nullable(),
  agent: runAgent.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  started_at: timestamp.nullable(),
  ended_at: timestamp.nullable(),
});
export type RunRecord = z.infer<typeof runRecord>;

/** A run as the API answers it: the stored record, with `run_id` beside `id`. */
export const run = runRecord.extend({ run_id: z.string() });
export type Run = z.infer<typeof run>;

/** A step: a model turn, a tool batch, an approval, a gate or a non-agent node execution. */
export const step = z.object({
  id: z.string(),
  run_id: z.string(),
  /** The workflow node it belongs to. */
  node_id: z.string(),
  kind: z.enum(stepKinds),
  status: z.enum(stepStatuses),
  attempt: z.number().int(),
  /**
   * The worker that ran it (`host:pid:random`; keel-web's executor `web:host:pid:random`); null for steps
   * recorded before worker ids were.
   */
  worker_id: z.string().nullable(),
  detail: jsonObject,
  error: errorObject.nullable(),
  started_at: timestamp,
  ended_at: timestamp.nullable(),
});
export type Step = z.infer<typeof step>;

/** `GET /runtime/runs/{id}`: the run, whether its worker died (`orphaned`), and its steps. */
export const runDetail = run.extend({ orphaned: z.boolean(), steps: z.array(step) });
export type RunDetail = z.infer<typeof runDetail>;

/** `GET /runtime/runs`: newest first; `next_cursor` is the next page's `cursor`. */
export const runPage = z.object({ runs: z.array(run), next_cursor: z.string().nullable() });
export type RunPage = z.infer<typeof runPage>;

/** A checkpoint as the timeline shows it: where in the run, without its state. */
export const checkpointSummary = z.object({
  id: z.string(),
  run_id: z.string(),
  step_id: z.string().nullable(),
  /** The run's event cursor when it was taken: history up to here belongs to it. */
  seq: z.number().int(),
  created_at: timestamp,
});
export type CheckpointSummary = z.infer<typeof checkpointSummary>;

/** A checkpoint with the scheduler's serialised state (opaque: what resumes the run in any process). */
export const checkpoint = checkpointSummary.extend({ state: z.unknown() });
export type Checkpoint = z.infer<typeof checkpoint>;

/** `GET /runtime/runs/{id}/checkpoints`. */
export const checkpointList = z.object({ checkpoints: z.array(checkpoint) });
export type CheckpointList = z.infer<typeof checkpointList>;

/** `GET /runtime/runs/{id}/metrics`. */
export const runMetrics = z.object({
  run_id: z.string(),
  status: z.string(),
  /** From the first claim to the end (or to now while it runs); null before it started. */
  duration_ms: z.number().nullable(),
  usage,
  cost_usd: z.number(),
  /** Run retries (attempts after the first), and model and node retries announced as `retry` events. */
  retries: z.object({ run: z.number().int(), events: z.number().int() }),
  /** Steps by kind. */
  steps: z.record(z.string(), z.number()),
  /** Tool calls by tool name. */
  tools: z.record(z.string(), z.number()),
  gates: z.object({ passed: z.number().int(), failed: z.number().int() }),
  artifacts: z.number().int(),
  approvals: z.number().int(),
  checkpoints: z.number().int(),
});
export type RunMetrics = z.infer<typeof runMetrics>;

/** `POST /runtime/runs/{id}/input` (202): a message for the running run, shown to the model at its next turn. */
export const userInput = z.object({
  id: z.string(),
  run_id: z.string(),
  content: z.string(),
  created_at: timestamp,
  /** When a checkpoint that holds it was written; null while it waits for the run's next turn. */
  consumed_at: timestamp.nullable(),
});
export type UserInput = z.infer<typeof userInput>;

/** `POST /run`: the run result of spec section 2 once the run ended, with the `done` event's metadata. */
export const runResult = z.object({
  status: z.literal('success'),
  output: z.string(),
  thinking: z.string(),
  tool_traces: z.array(toolTrace),
  session_id: z.string(),
  /** The stored run: `GET /runtime/runs/{run_id}`. */
  run_id: z.string(),
  usage,
  metadata: runMetadata,
});
export type RunResult = z.infer<typeof runResult>;

/** `POST /tool`: one tool's result, as the model would have seen it. */
export const toolCallResult = z.object({ status: z.literal('success'), result: z.string() });
export type ToolCallResult = z.infer<typeof toolCallResult>;
