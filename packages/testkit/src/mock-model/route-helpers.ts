import type { ServerResponse } from 'node:http';
import { sendJson } from './http.ts';
import { isRecord } from './sse.ts';
import type { RecordedRequest } from './types.ts';

/** A protocol's error body for a status and message. */
export type ErrorBody = (status: number, message: string) => object;

/**
 * The body of a POST with a JSON object body; otherwise answers 405 or 400 in the protocol's error
 * shape and returns undefined.
 */
export function postBody(
  res: ServerResponse,
  request: RecordedRequest,
  errorBody: ErrorBody,
): Record<string, unknown> | undefined {
  const { method, path } = request;
  if (method !== 'POST') {
    sendJson(res, 405, errorBody(405, `Method not allowed (${method} ${path}); use POST`), { allow: 'POST' });
    return undefined;
  }
  if (!isRecord(request.body)) {
    sendJson(res, 400, errorBody(400, 'The request body must be a JSON object.'));
    return undefined;
  }
  return request.body;
}
