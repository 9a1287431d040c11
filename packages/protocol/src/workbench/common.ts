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

export const usage = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  cost_usd: z.number().optional(),
});
export type Usage = z.infer<typeof usage>;
