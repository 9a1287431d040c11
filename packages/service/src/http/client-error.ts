import type { Duplex } from 'node:stream';
import { answerBadUrl } from './error-handler.ts';

const reasons: Record<number, string> = {
  400: 'Bad Request',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/**
 * Answers a request Node's HTTP parser refused (headers too large, a URL too long, not HTTP at all) in the
 * one error shape, `{"error": {"code", "message", "details"}}`, and closes the connection. For an HTTP
 * server's `clientError` event (Fastify's `clientErrorHandler`), where no framework can answer any more.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
  const message =
    status === 431
      ? 'The request headers are too large.'
      : status === 414
        ? 'The request URL is too long.'
        : 'The request is not valid HTTP.';
  const body = JSON.stringify({
    error: { code: 'INVALID_PARAMS', message, details: { reason: error.code ?? 'BAD_REQUEST' } },
  });
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Fastify's options for requests its router or Node's HTTP parser refuse before any handler runs, the same
 * for both services: long path parameters reach the handlers (which answer 404 or 400 in the error shape),
 * a request Node cannot parse (headers too large, a broken request line) gets the error shape, and so does
 * a URL the router cannot decode (`/%ff`, refused before routing, outside the error handler).
 */
export const frameworkOptions = {
  routerOptions: { maxParamLength: 1024 },
  clientErrorHandler: answerClientError,
  frameworkErrors: answerBadUrl,
};
