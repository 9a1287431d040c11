import { z } from 'zod';

/** Tokens a run (or a model turn) used: the runtime's own schema (`@keel/runtime/wire`). */
export { type Usage, usageSchema as usage } from '@keel/runtime/wire';

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

/** The answer of deleting a record (a session, a project, a task). */
export const deleted = z.object({ status: z.literal('deleted'), id: z.string() });
export type Deleted = z.infer<typeof deleted>;
