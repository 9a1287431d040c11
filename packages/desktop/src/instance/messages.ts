import { z } from 'zod';

/** What a second launch asks of the first (one JSON line); anything else is refused and the connection closed. */
export const instanceRequest = z.discriminatedUnion('type', [
  /** Bring the window to the front; with `task_id`, show that task. */
  z.object({
    type: z.literal('focus'),
    task_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/)
      .optional(),
  }),
]);
export type InstanceRequest = z.infer<typeof instanceRequest>;

/** The first instance's answer. */
export const instanceAnswer = z.object({
  ok: z.boolean(),
  /** The service's URL the first instance shows. */
  url: z.string().optional(),
  /** The first instance's pid. */
  pid: z.number().int().optional(),
  error: z.string().optional(),
});
export type InstanceAnswer = z.infer<typeof instanceAnswer>;
