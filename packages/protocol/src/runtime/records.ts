import { z } from 'zod';
import { jsonObject, timestamp } from './common.ts';
import { approvalKinds, approvalStatuses, runStatuses } from './names.ts';
import { checkpointSummary, run, runRecord, step } from './runs.ts';

/** A human's decision a run waits on: a tool call a policy holds, a workflow's approval node, a question. */
export const approval = z.object({
  id: z.string(),
  run_id: z.string(),
  step_id: z.string().nullable(),
  node_id: z.string(),
  kind: z.enum(approvalKinds),
  /** What the human is asked. */
  prompt: z.string(),
  /** The choices offered (for a tool or node approval: approve, reject). */
  options: z.array(z.string()),
  /** What is being approved; for a tool approval `{tool_name, tool_call_id, args}`. */
  detail: jsonObject,
  status: z.enum(approvalStatuses),
  /** The answer to a question, or the reason given with a decision. */
  answer: z.string().nullable(),
  decided_by: z.string().nullable(),
  created_at: timestamp,
  decided_at: timestamp.nullable(),
});
export type Approval = z.infer<typeof approval>;

/** `GET /runtime/approvals`: newest first. */
export const approvalList = z.object({ approvals: z.array(approval) });
export type ApprovalList = z.infer<typeof approvalList>;

/** `POST /runtime/approvals/{id}/approve|reject|answer`: the decided approval, and the run it let go on. */
export const approvalDecided = z.object({ approval, run });
export type ApprovalDecided = z.infer<typeof approvalDecided>;

/** The record of a file or review a run produced; its payload is at `GET /runtime/artifacts/{id}/content`. */
export const artifact = z.object({
  id: z.string(),
  run_id: z.string(),
  step_id: z.string().nullable(),
  node_id: z.string().nullable(),
  /** A short name, e.g. `review.json` or the path of a file. */
  name: z.string(),
  /** What it is: `review`, `output`, `file`, … */
  kind: z.string(),
  media_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** Where the payload lives in the blob store (`file:…` or `s3://…`). */
  uri: z.string(),
  metadata: jsonObject,
  created_at: timestamp,
});
export type Artifact = z.infer<typeof artifact>;

/** `GET /runtime/artifacts/{id}`: the artifact, with the address of its payload. */
export const artifactWithContent = artifact.extend({ content_url: z.string() });
export type ArtifactWithContent = z.infer<typeof artifactWithContent>;

/** `GET /runtime/runs/{id}/artifacts`. */
export const artifactList = z.object({ artifacts: z.array(artifact) });
export type ArtifactList = z.infer<typeof artifactList>;

/** A run's timeline entry: when (`at`) and what, each step linked to the checkpoint after it. */
export const timelineEntry = z.discriminatedUnion('type', [
  step.extend({ type: z.literal('step'), at: timestamp, checkpoint_id: z.string().nullable() }),
  checkpointSummary.extend({ type: z.literal('checkpoint'), at: timestamp }),
  approval.extend({ type: z.literal('approval'), at: timestamp }),
  artifact.extend({ type: z.literal('artifact'), at: timestamp, href: z.string() }),
  /** A sub-agent the run spawned: its run (`id`), at its creation. */
  z.object({
    type: z.literal('sub_agent'),
    at: timestamp,
    id: z.string(),
    agent_id: z.string(),
    agent_type: z.string(),
    task: z.string(),
    status: z.enum(runStatuses),
    ended_at: timestamp.nullable(),
    href: z.string(),
  }),
]);
export type TimelineEntry = z.infer<typeof timelineEntry>;

/** `GET /runtime/runs/{id}/timeline`: the stored run and its entries in time order. */
export const timeline = z.object({ run: runRecord, entries: z.array(timelineEntry) });
export type Timeline = z.infer<typeof timeline>;

/** The spec's audit entry (section 2), with the run it belongs to. */
export const auditEntry = z.object({
  id: z.string(),
  timestamp,
  /** tool_call, file_write, file_edit, command_exec, api_request, auth_failure, run_control, … */
  event: z.string(),
  tool_name: z.string().nullable(),
  args_summary: z.string(),
  result_summary: z.string(),
  session_id: z.string().nullable(),
  run_id: z.string().nullable(),
  workdir: z.string(),
  success: z.boolean(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** `GET /audit`, `GET /runtime/audit`: newest first, and how many match. */
export const auditPage = z.object({ entries: z.array(auditEntry), total: z.number().int() });
export type AuditPage = z.infer<typeof auditPage>;
