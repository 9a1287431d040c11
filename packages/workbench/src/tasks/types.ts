import type {
  FollowedMergeRequest,
  InitProgress,
  PrdLinkError,
  SubmitResult,
  TaskReview,
  Workspace,
} from '@keel/protocol/workbench';
import { z } from 'zod';
import { branchNameProblem } from './branch-name.ts';
import type { TaskState } from './states.ts';

export {
  type FindingSeverity,
  type FollowedMergeRequest,
  findingSeverities,
  type InitProgress,
  type InitStep,
  type PlanVersion,
  type PrdLinkError,
  type ReviewFinding,
  type StepStatus,
  type SubmitResult,
  type TaskImageInfo,
  type TaskReview,
  type Todo,
  type TodoOrigin,
  type TodoStatus,
  todoStatuses,
  type Workspace,
} from '@keel/protocol/workbench';

/** Bounds of task images: each at most 5 MiB of base64, at most 8 per task. */
export const maxImageChars = 5 * 1024 * 1024;
export const maxImages = 8;

const imageSchema = z.strictObject({
  data: z
    .string()
    .min(1)
    .max(maxImageChars, `must be at most ${maxImageChars} base64 characters`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  media_type: z.string().regex(/^image\/[a-z0-9.+-]+$/, 'must be an image media type, e.g. image/png'),
  filename: z.string().min(1).max(255).optional(),
});
export type TaskImage = z.infer<typeof imageSchema>;

const branchSchema = z.string().superRefine((name, context) => {
  const problem = branchNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: `is not a valid branch name: ${problem}` });
});

const fields = {
  description: z.string().trim().min(1).max(50_000),
  prd_links: z.array(z.url({ protocol: /^https?$/ })).max(20),
  images: z.array(imageSchema).max(maxImages),
  runner: z.string().min(1).nullable(),
  branch: branchSchema,
};

export const taskCreateSchema = z.strictObject({
  project_id: z.string().min(1),
  description: fields.description,
  prd_links: fields.prd_links.default([]),
  images: fields.images.default([]),
  runner: fields.runner.optional(),
  branch: fields.branch.optional(),
});

/** `state` is accepted only to be refused with a clear 409: it changes through the flow's actions alone. */
export const taskUpdateSchema = z.strictObject({
  description: fields.description.optional(),
  prd_links: fields.prd_links.optional(),
  images: fields.images.optional(),
  runner: fields.runner.optional(),
  branch: fields.branch.optional(),
  state: z.unknown().optional(),
});

export const taskListQuery = z.object({ project_id: z.string().min(1).optional() });
export const messageBody = z.strictObject({ message: z.string().trim().min(1).max(50_000).optional() });
export const submitBody = z.strictObject({
  title: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(16_000).optional(),
});

export interface Task {
  id: string;
  project_id: string;
  description: string;
  prd_links: string[];
  images: TaskImage[];
  runner: string | null;
  branch: string;
  state: TaskState;
  cancelled_from: TaskState | null;
  init: InitProgress;
  workspaces: Workspace[];
  plan_session_id: string | null;
  review_session_id: string | null;
  init_session_id: string | null;
  commit_message: string | null;
  /** The MR's title and description as the user edited them in review (null: from the commit message). */
  mr_title: string | null;
  mr_description: string | null;
  results: SubmitResult[] | null;
  /** The PRD links the latest first plan draft could not read (it was written without them); [] when all were read. */
  prd_link_errors: PrdLinkError[];
  /** The reviewer's findings on the change (null until the task first reaches review). */
  review: TaskReview | null;
  /** The submitted merge requests, followed until merged or closed (null before submit). */
  merge_requests: FollowedMergeRequest[] | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

const todoText = {
  title: z.string().trim().min(1).max(500),
  description: z.string().max(20_000),
  expected_output: z.string().max(20_000),
};

export const planBody = z.strictObject({ content: z.string().trim().min(1).max(200_000) });
export const planDiffQuery = z.strictObject({
  from: z.coerce.number().int().min(1).optional(),
  to: z.coerce.number().int().min(1).optional(),
});
export const versionParams = z.object({
  id: z.string().min(1).max(200),
  version: z.coerce.number().int().min(1),
});
export const todoParams = z.object({
  id: z.string().min(1).max(200),
  todo_id: z.string().min(1).max(200),
});
export const todoCreateBody = z.strictObject({
  title: todoText.title,
  description: todoText.description.default(''),
  expected_output: todoText.expected_output.default(''),
  /** 1-based place in the list (default: at the end). */
  position: z.number().int().min(1).optional(),
});
export const todoUpdateBody = z
  .strictObject({
    title: todoText.title.optional(),
    description: todoText.description.optional(),
    expected_output: todoText.expected_output.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of title, description, expected_output',
  });
export const todoOrderBody = z.strictObject({ todo_ids: z.array(z.string().min(1)).min(1).max(1000) });
const mergeRequestItem = z.strictObject({
  repository: z.string().min(1).max(200),
  check: z.string().min(1).max(500).optional(),
  comment_id: z.string().min(1).max(200).optional(),
});

/** Follow-up todos: from review findings, from the MR (a failed check or a comment), or written out. */
export const followUpBody = z
  .strictObject({
    findings: z.array(z.string().min(1).max(200)).max(100).default([]),
    merge_request: z
      .array(
        mergeRequestItem.refine((item) => (item.check === undefined) !== (item.comment_id === undefined), {
          message: 'give either check or comment_id',
        }),
      )
      .max(100)
      .default([]),
    todos: z
      .array(
        z.strictObject({
          title: todoText.title,
          description: todoText.description.default(''),
          expected_output: todoText.expected_output.default(''),
        }),
      )
      .max(100)
      .default([]),
  })
  .refine((body) => body.findings.length + body.merge_request.length + body.todos.length > 0, {
    message: 'give at least one of findings, merge_request, todos',
  });
export const findingParams = z.object({
  id: z.string().min(1).max(200),
  finding_id: z.string().min(1).max(200),
});

export const commitMessageBody = z.strictObject({
  commit_message: z.string().trim().min(1).max(16_000).optional(),
  mr_title: z.string().trim().min(1).max(255).nullable().optional(),
  mr_description: z.string().max(16_000).nullable().optional(),
});
