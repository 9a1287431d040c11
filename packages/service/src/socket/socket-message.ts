import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** Close code for a WebSocket without a valid key (the spec's 4001, both services). */
export const unauthorizedClose = 4001;

/**
 * Admits a WebSocket its route's handler just got: true when `authorized` (the request guard's
 * authorizer) takes its credentials, otherwise the socket is closed with 4001 and the handler stops.
 */
export function admitSocket(
  socket: { close(code: number, reason: string): void },
  request: FastifyRequest,
  authorized: (request: FastifyRequest) => boolean,
): boolean {
  if (authorized(request)) return true;
  socket.close(unauthorizedClose, 'Unauthorized');
  return false;
}

/** A client message read against its schema, or the INVALID_PARAMS refusal to send back. */
export type SocketMessage<T> =
  | { ok: true; message: T }
  | { ok: false; error: { code: 'INVALID_PARAMS'; message: string } };

/**
 * Reads one text frame as a message of `schema`: JSON, then the schema, the refusal naming the first field
 * that is wrong (`data.prompt: …`), or saying what a message must be when the frame is not JSON at all.
 */
export function readSocketMessage<S extends z.ZodType>(schema: S, text: string): SocketMessage<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return invalid('Messages must be JSON objects with a type.');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return invalid(`${where}${issue?.message ?? 'invalid message'}`);
}

function invalid(message: string): SocketMessage<never> {
  return { ok: false, error: { code: 'INVALID_PARAMS', message } };
}
