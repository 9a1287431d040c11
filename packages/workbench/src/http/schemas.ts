import { errorBody } from '@keel/protocol/workbench';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** The error body, for the OpenAPI document of every route. */
export const errorSchema = errorBody;

/** The body of a 204: nothing. */
export const noContent = z.null().describe('No content (204).');

/**
 * The responses of a route: its success body, from the wire's schemas in `@keel/protocol` (the answer is
 * serialised through it, so a field the schema does not name is not sent, and an answer that does not
 * match it is a server error), and the error statuses it can answer, all in the one error shape.
 */
export function responses<const Body extends z.ZodType, const Codes extends readonly number[]>(
  body: Body,
  ...codes: Codes
) {
  const documented: Record<string, z.ZodType> = { '2xx': body };
  for (const code of codes) documented[code] = errorSchema;
  return documented as { '2xx': Body } & { [K in Codes[number]]: typeof errorSchema };
}

export const idParams = z.object({ id: z.string().min(1).max(200) });

/**
 * Sends an answer that is already its JSON text (stored log lines), past the route's serializer: for the
 * few hot routes where serialising through the schema again would cost more than the read. Its shape is
 * still the route's schema; tests check it.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(text);
}
