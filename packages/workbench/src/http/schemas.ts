import { z } from 'zod';

export { errorSchema, noContent, responses, sendJsonText } from '@keel/service';

export const idParams = z.object({ id: z.string().min(1).max(200) });
