import { z } from 'zod';
import { branchNameProblem } from './branch-name.ts';

// The bodies, queries and path parameters of the task routes, as the service validates them: a client
// that builds its requests from these types sends what the service accepts.

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

export type TaskCreate = z.input<typeof taskCreateSchema>;
export type TaskUpdate = z.input<typeof taskUpdateSchema>;
export type TaskImageInput = z.input<typeof taskCreateSchema>['images'] extends (infer I)[] | undefined
  ? I
  : never;
export type MessageInput = z.input<typeof messageBody>;
export type SubmitInput = z.input<typeof submitBody>;
export type PlanInput = z.input<typeof planBody>;
export type TodoInput = z.input<typeof todoCreateBody>;
export type TodoPatch = z.input<typeof todoUpdateBody>;
export type TodoOrder = z.input<typeof todoOrderBody>;
export type FollowUpInput = z.input<typeof followUpBody>;
export type CommitMessageEdit = z.input<typeof commitMessageBody>;
