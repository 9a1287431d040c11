import { z } from 'zod';

export {
  type ErrorBody,
  type ErrorObject,
  errorBody,
  errorObject,
  type Health,
  health,
  timestamp,
} from '../index.ts';

/** JSON the store keeps as it was given (a run's input, a step's detail): any object. */
export const jsonObject = z.record(z.string(), z.unknown());

/** Tokens a run (or a model turn) used. */
export const usage = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  /** True when some counts are Keel's estimate: the server sent no usage (issue #41). */
  estimated: z.boolean().optional(),
});
export type Usage = z.infer<typeof usage>;

/** The answer of deleting a record (a session, a project, a task). */
export const deleted = z.object({ status: z.literal('deleted'), id: z.string() });
export type Deleted = z.infer<typeof deleted>;
