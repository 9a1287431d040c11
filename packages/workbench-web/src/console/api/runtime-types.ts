// keel-web's runtime API as it answers (packages/server/README.md), written out here rather than imported:
// the runtime's own types live beside Node-only code. Only the fields the console reads are typed.
import type { ErrorObject } from '../../api/types.ts';

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
  run_id: string;
  status: RunStatus;
  session_id: string | null;
  workdir: string;
  prompt: string;
  input: Record<string, unknown>;
  result: unknown;
  error: ErrorObject | null;
  last_seq: number;
  attempt: number;
  forked_from: { run_id: string; checkpoint_id: string } | null;
  usage: RunUsage;
  cost_usd: number;
  /** The run that spawned this one as its sub-agent; null (or absent, from an older server) otherwise. */
  parent_run_id?: string | null;
  /** Set when the run is (one run of) a sub-agent. */
  agent?: RunAgent | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  ended_at: string | null;
}

/** What makes a run a sub-agent's (`POST /agent/spawn`, or the `spawn_agent` tool of a parent run). */
export interface RunAgent {
  agent_id: string;
  type: string;
  task: string;
  timeout_seconds: number;
  deadline_at: string;
  spawned_at: string;
  /** The earlier run of the sub-agent that this one resumes; null for the first. */
  resumes: string | null;
}

export type StepKind = 'model_turn' | 'tool_batch' | 'tool' | 'approval' | 'gate' | 'node';

export interface Step {
  id: string;
  run_id: string;
  node_id: string;
  kind: StepKind;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled' | 'waiting' | 'abandoned';
  attempt: number;
  detail: Record<string, unknown>;
  error: ErrorObject | null;
  started_at: string;
  ended_at: string | null;
}

/** `GET /runtime/runs/{id}`: the run, whether its worker died, and its steps. */
export interface RunDetail extends Run {
  orphaned: boolean;
  steps: Step[];
}

export interface RunPage {
  runs: Run[];
  next_cursor: string | null;
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'answered' | 'cancelled';

export interface Approval {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string;
  /** tool: a tool call a policy holds; node: a workflow's approval node; question: the model asks. */
  kind: 'tool' | 'node' | 'question';
  prompt: string;
  options: string[];
  /** For a tool approval: `{tool_name, tool_call_id, args}`. */
  detail: Record<string, unknown>;
  status: ApprovalStatus;
  answer: string | null;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
}

export interface Artifact {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string | null;
  name: string;
  kind: string;
  media_type: string;
  size: number;
  created_at: string;
}

export interface Checkpoint {
  id: string;
  run_id: string;
  step_id: string | null;
  seq: number;
  created_at: string;
}

export type TimelineEntry =
  | ({ type: 'step'; at: string; checkpoint_id: string | null } & Step)
  | ({ type: 'checkpoint'; at: string } & Checkpoint)
  | ({ type: 'approval'; at: string } & Approval)
  | ({ type: 'artifact'; at: string; href: string } & Artifact)
  | {
      type: 'sub_agent';
      at: string;
      /** The child run. */
      id: string;
      agent_id: string;
      agent_type: string;
      task: string;
      status: RunStatus;
      ended_at: string | null;
      href: string;
    };

export interface Timeline {
  run: Run;
  entries: TimelineEntry[];
}

export interface RunMetrics {
  duration_ms: number | null;
  retries: { run: number; events: number };
  steps: Record<string, number>;
  tools: Record<string, number>;
  artifacts: number;
  approvals: number;
  checkpoints: number;
}

/** The run request fields the console's form sends (spec section 2). */
export interface RunStart {
  prompt: string;
  workdir: string;
  /** Continue this session (a project's or a task's). */
  session_id?: string;
  model?: string;
  enable_thinking?: boolean;
  max_tokens?: unknown;
  max_cost_usd?: unknown;
  max_steps?: unknown;
}

/** What a runtime tool does, as its traits declare (`ToolTraits.kind`). */
export type ToolTraitKind = 'read' | 'edit' | 'search' | 'execute' | 'fetch' | 'think' | 'agent' | 'other';

/** `GET /console/info`. */
export interface ServerInfo {
  version: string;
  workdir: string;
  /** The runtime's built-in tools, each with its traits' kind (an older server sends none). */
  tools?: { name: string; kind: ToolTraitKind }[];
}

/** `GET /config/status`. */
export interface ConfigStatus {
  ready: boolean;
  missing: string[];
  model: string | null;
  model_base_url: string | null;
}

/** A streamed runtime event (spec section 4), as the run's SSE stream carries it. */
export type RunEvent = { session_id: string } & (
  | { type: 'session_start' }
  | { type: 'thinking'; content: string }
  | { type: 'tool_call'; tool_name: string; args: Record<string, unknown>; tool_call_id: string }
  | { type: 'tool_result'; tool_name: string; tool_call_id: string; result: string }
  | { type: 'text_delta'; content: string }
  | {
      type: 'done';
      output: string;
      usage: RunUsage;
      metadata?: { summary: string; confidence: number; issues: string[]; next_steps: string[] };
    }
  | { type: 'compact'; original_messages: number; compacted_messages: number; estimated_tokens_saved: number }
  | { type: 'prune'; pruned_count: number; estimated_tokens_saved: number }
  | { type: 'circuit_breaker'; reason: string; tokens_used: number; cost_usd: number }
  | { type: 'cancelled' }
  | { type: 'retry'; attempt: number; max_attempts: number; error: string }
  | { type: 'interaction_request'; request_id: string; kind: string; prompt: string; options: string[] }
  | { type: 'user_input_received'; content: string }
  | { type: 'error'; error: ErrorObject }
  | { type: 'agent_spawned'; agent_id: string; run_id: string; agent_type: string; task: string }
  | { type: 'agent_finished'; agent_id: string; run_id: string; status: string; error: string | null }
);

/** One event of a run with its gapless sequence number (the SSE message's `id`). */
export interface RunEventRecord {
  seq: number;
  event: RunEvent;
}

/** A project (`/api/projects`): a directory with a description, further code paths and its own session. */
export interface Project {
  id: string;
  name: string;
  description: string;
  workdir: string;
  code_paths: string[];
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewProject {
  name: string;
  workdir: string;
  description?: string;
  code_paths?: string[];
}

/** `PUT /api/projects/{id}`: the fields given change, the others stay. */
export type ProjectUpdate = Partial<NewProject>;

/** `POST /api/projects/{id}/tasks`. */
export interface NewTask {
  name: string;
  branch_name: string;
}

/** `PUT /api/tasks/{id}`: rename it, or move it to another branch (created or switched to). */
export type TaskUpdate = Partial<NewTask>;

/** A development task of a project: a git branch of its repository and a session of its own. */
export interface Task {
  id: string;
  project_id: string;
  name: string;
  branch_name: string;
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

/** `POST /api/projects/{id}/init`: the run writing the project guide. */
export interface ProjectInit {
  run_id: string;
  guide_path: string;
  run: Run;
}

/** `GET /api/directories`: one directory of the server's machine. */
export interface Directory {
  path: string;
  parent: string | null;
  entries: { name: string; is_dir: boolean }[];
}
