import { z } from 'zod';

// keel-web's request bodies of spec section 2: a run, and web projects and tasks. The run request is the
// runtime's own schema (`@keel/runtime/wire`), the one the SDK validates with. The project and task bodies
// are still the runtime's copied without their descriptions; a test in packages/server proves the two agree.

/** An image as a request carries it (the answers' `imagePayload` reads it back). */
/** The run request, shared by the SDK, `POST /run`, `POST /run/stream` and `POST /runtime/runs`. */
export {
  imagePayloadSchema as imagePayloadInput,
  type RunRequest,
  runRequestSchema as runRequest,
} from '@keel/runtime/wire';

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
