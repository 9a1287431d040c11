import { z } from 'zod';
import type { RunnerErrorObject } from '../runners/index.ts';
import { branchNameProblem } from './branch-name.ts';
import type { TaskState } from './states.ts';

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

export type StepStatus = 'pending' | 'running' | 'done' | 'failed';
export interface InitStep {
  name: string;
  status: StepStatus;
  detail?: string;
  error?: string;
}
export interface InitProgress {
  status: 'idle' | 'running' | 'done' | 'failed';
  steps: InitStep[];
}

/** One repository's isolated copy in the task's work directory. */
export interface Workspace {
  repository: string;
  dir: string;
  branch: string;
  base_commit: string;
  base_branch: string;
  origin_url: string | null;
}

export interface SubmitResult {
  repository: string;
  changed: boolean;
  branch: string;
  commit: string | null;
  provider?: 'gitlab' | 'github' | 'other';
  mr_url?: string | null;
  compare_url?: string | null;
  error?: RunnerErrorObject;
}

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
  results: SubmitResult[] | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export const todoStatuses = ['pending', 'running', 'done', 'failed', 'skipped'] as const;
export type TodoStatus = (typeof todoStatuses)[number];

export interface Todo {
  id: string;
  task_id: string;
  position: number;
  title: string;
  description: string;
  expected_output: string;
  status: TodoStatus;
  session_id: string | null;
  /** Snapshot sha per repository before the todo first ran (the retry restores it). */
  before: Record<string, string> | null;
  after: Record<string, string> | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}
