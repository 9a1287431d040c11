import type { JsonObject } from './json.ts';

// Approvals: a human's decision a run waits on (a tool call, a node, a question).

export type ApprovalKind = 'tool' | 'node' | 'question';
/** `expired`: nobody decided within the interaction timeout (its `timeout_seconds` detail). */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'answered' | 'cancelled' | 'expired';

export interface Approval {
  id: string;
  run_id: string;
  step_id: string | null;
  node_id: string;
  kind: ApprovalKind;
  /** What the human is asked. */
  prompt: string;
  /** The choices offered (for a tool or node approval: approve, reject). */
  options: string[];
  /** What is being approved, e.g. `{ tool_name, args }`. */
  detail: JsonObject;
  status: ApprovalStatus;
  /** The answer to a question, or the reason given with a decision. */
  answer: string | null;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
}

export interface NewApproval {
  run_id: string;
  step_id: string | null;
  node_id: string;
  kind: ApprovalKind;
  prompt: string;
  options: string[];
  detail?: JsonObject;
}

export interface ApprovalDecision {
  status: Exclude<ApprovalStatus, 'pending'>;
  answer?: string | null;
  decided_by?: string | null;
}

export interface ApprovalQuery {
  run_id?: string;
  status?: ApprovalStatus;
  /** Default 50. */
  limit?: number;
}
