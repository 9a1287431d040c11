import { z } from 'zod';
import { timestamp } from './common.ts';

// A task's previews (issue #37): a repository's run/dev command started in the task's workspace, sandboxed,
// on a free loopback port, until it is stopped, the task is deleted or the service stops.

/**
 * `starting`: the command runs, its port does not answer yet; `running`: the port answers; `exited`: the
 * command ended by itself (`exit_code`); `stopped`: it was stopped (by the user, the task's delete or the
 * service's shutdown).
 */
export const previewStates = ['starting', 'running', 'exited', 'stopped'] as const;
export type PreviewState = (typeof previewStates)[number];

export const preview = z.object({
  repository: z.string(),
  /** The command line, run at the repository's root in the task's workspace with `PORT` and `HOST` set. */
  command: z.string(),
  state: z.enum(previewStates),
  /** The loopback port given as `PORT`. */
  port: z.number().int(),
  /** Where it answers, e.g. `http://127.0.0.1:41234`. */
  url: z.string(),
  /** The process the workbench started (the sandbox's, when there is one); null once it ended. */
  pid: z.number().int().nullable(),
  /** How it ended: its exit code, or the signal that ended it (null while it runs). */
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** Why it could not start or run, in a sentence (null: nothing went wrong). */
  error: z.string().nullable(),
  started_at: timestamp,
  ended_at: timestamp.nullable(),
});
export type Preview = z.infer<typeof preview>;

export const previewList = z.object({ previews: z.array(preview) });
export type PreviewList = z.infer<typeof previewList>;

/** The end of a preview's output (stdout and stderr as they came) and the seq of its last chunk. */
export const previewLog = z.object({
  repository: z.string(),
  log: z.string(),
  /** The seq of the last chunk in `log` (0: none): a `preview_log` message at or below it is in `log` already. */
  seq: z.number().int(),
  /** Whether older output was dropped to keep the tail bounded. */
  truncated: z.boolean(),
});
export type PreviewLog = z.infer<typeof previewLog>;

/** `POST /api/tasks/{id}/previews`: which repository's preview to start. */
export const previewStartSchema = z.strictObject({ repository: z.string().min(1) });
export type PreviewStart = z.input<typeof previewStartSchema>;
