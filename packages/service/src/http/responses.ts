import { errorBody as errorBodySchema } from '@keel/protocol';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * The responses of a route, for both services: its success body, a schema of the service's wire in
 * `@keel/protocol` (the answer is serialised through it, so a field the schema does not name is not sent,
 * and an answer that does not match it is a 500 that the tests catch), and the error statuses it can
 * answer, all in the one error shape.
 */
export function responses<const Body extends z.ZodType, const Codes extends readonly number[]>(
  body: Body,
  ...codes: Codes
) {
  const documented: Record<string, z.ZodType> = { '2xx': body };
  for (const code of codes) documented[code] = errorBodySchema;
  return documented as { '2xx': Body } & { [K in Codes[number]]: typeof errorBodySchema };
}

/** The error body's schema, for a route that lists its responses itself. */
export const errorSchema = errorBodySchema;

/** The body of a 204: nothing. */
export const noContent = z.null().describe('No content (204).');

/**
 * The response of a Server-Sent Events route, for the OpenAPI document: each `data:` line is one `event`.
 * Such a route writes its stream itself (stored events go out as their stored text), so nothing passes
 * through this schema at run time; tests parse the events they read against it.
 */
export function eventStream<const Event extends z.ZodType>(event: Event, description: string) {
  return { description, content: { 'text/event-stream': { schema: event } } };
}

/**
 * Sends an answer that is already its JSON text (stored lines), past the route's serializer: for the hot
 * routes where serialising through the schema again would cost more than the read. Its shape is still the
 * route's schema; tests check it.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(text);
}
