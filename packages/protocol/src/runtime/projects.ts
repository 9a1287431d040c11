import { z } from 'zod';
import { timestamp } from './common.ts';
import { run } from './runs.ts';

// Projects and development tasks of the web API (`/api/projects`, `/api/tasks`), and the directory
// listing that picks a project's directory.

/** A directory the user works on, with further code paths and its own chat session. */
export const project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Absolute, symlinks resolved. */
  workdir: z.string(),
  /** Further code directories its chats may read and write (absolute, normalised). */
  code_paths: z.array(z.string()),
  session_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Project = z.infer<typeof project>;

/** A piece of work on a project, on its own git branch, with its own session. */
export const task = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  branch_name: z.string(),
  session_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Task = z.infer<typeof task>;

/** `GET /api/projects`: newest first; `next_cursor` is the next page's `cursor`. */
export const projectPage = z.object({ projects: z.array(project), next_cursor: z.string().nullable() });
export type ProjectPage = z.infer<typeof projectPage>;

/** `GET /api/projects/{id}/tasks`. */
export const taskPage = z.object({ tasks: z.array(task), next_cursor: z.string().nullable() });
export type TaskPage = z.infer<typeof taskPage>;

/** `POST /api/projects/{id}/init` (202): the run writing the project guide (`AGENTS.md`). */
export const projectInit = z.object({ run_id: z.string(), guide_path: z.string(), run });
export type ProjectInit = z.infer<typeof projectInit>;

/** `GET /api/directories`: one directory of the server's machine, directories first. */
export const directory = z.object({
  path: z.string(),
  /** Null at the root. */
  parent: z.string().nullable(),
  entries: z.array(z.object({ name: z.string(), is_dir: z.boolean() })),
});
export type Directory = z.infer<typeof directory>;
