import { z } from 'zod';

// keel-web's request bodies of spec section 2: a run, and web projects and tasks. The runtime validates with
// its own copies (it has exactly three dependencies and cannot import this package); a test in
// packages/server proves the two agree field by field.

/** An image as a request carries it (the answers' `imagePayload` reads it back). */
export const imagePayloadInput = z.strictObject({
  data: z.base64('data must be base64 (no data: prefix)').min(1),
  media_type: z
    .string()
    .regex(/^image\/[\w.+-]+$/, 'media_type must be an image MIME type such as image/png'),
  filename: z.string().optional(),
});

/** The run request, shared by the SDK, `POST /run`, `POST /run/stream` and `POST /runtime/runs`. */
export const runRequest = z
  .strictObject({
    prompt: z.string().trim().min(1, 'prompt must not be empty'),
    workdir: z.string().min(1).optional(),
    allowed_roots: z.array(z.string().min(1)).optional(),
    model: z.string().min(1).optional(),
    model_base_url: z.url().optional(),
    model_api_key: z.string().min(1).optional(),
    enable_thinking: z.boolean().optional(),
    thinking_budget: z.number().int().positive().optional(),
    skills: z.array(z.string()).optional(),
    session_id: z.string().min(1).optional(),
    images: z.array(imagePayloadInput).optional(),
    max_tokens: z.number().int().nonnegative().optional(),
    max_cost_usd: z.number().nonnegative().optional(),
    max_steps: z.number().int().nonnegative().optional(),
    include_tools: z.array(z.string()).optional(),
    exclude_tools: z.array(z.string()).optional(),
    stream: z.boolean().optional(),
  })
  .refine((request) => !(request.include_tools && request.exclude_tools), {
    message: 'include_tools and exclude_tools are mutually exclusive',
    path: ['include_tools'],
  });
export type RunRequest = z.input<typeof runRequest>;

/** Text without NUL characters: file systems refuse them in paths, PostgreSQL in any text. */
const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !value.includes('\0'), 'must not contain NUL characters');
const name = text(200).refine((value) => value.trim() !== '', 'must not be empty');
const path = text(4096).refine((value) => value !== '', 'must not be empty');
const codePaths = z.array(path).max(100, 'must list at most 100 paths');
const branchName = text(255).refine((value) => value !== '', 'must not be empty');

/** `POST /api/projects`. */
export const newProject = z.strictObject({
  name,
  description: text(10_000).default(''),
  /** The project directory; it must exist. */
  workdir: path,
  /** Further code directories its chats may use (relative ones from workdir); each must exist. */
  code_paths: codePaths.default([]),
});
/** `PUT /api/projects/{id}`: the fields given change, the others stay. */
export const projectUpdate = z.strictObject({
  name: name.optional(),
  description: text(10_000).optional(),
  workdir: path.optional(),
  code_paths: codePaths.optional(),
});
/** `POST /api/projects/{id}/tasks`: the git branch is created or switched to. */
export const newTask = z.strictObject({ name, branch_name: branchName });
/** `PUT /api/tasks/{id}`: rename it, or move it to another branch. */
export const taskUpdate = z.strictObject({ name: name.optional(), branch_name: branchName.optional() });

export type NewProject = z.input<typeof newProject>;
export type ProjectUpdate = z.input<typeof projectUpdate>;
export type NewTask = z.input<typeof newTask>;
export type TaskUpdate = z.input<typeof taskUpdate>;
