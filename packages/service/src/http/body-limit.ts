import type { IncomingMessage } from 'node:http';
import type { ErrorObject } from '@keel/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How many times its body limit a refused body may be, in all, and still be read (and thrown away) so the
 * client can read its 413. Clients such as fetch and node:http fail the whole request when a write fails:
 * answering while one still sends and then closing resets the connection under it, and the answer is
 * lost ("fetch failed", EPIPE). Four times the limit lets the common mistake (a body somewhat too big) get its
 * answer, costs only bandwidth (nothing is kept), and scales with the service: 4 MiB for keel-web's
 * 1 MiB, 160 MiB for the workbench's 40 MiB. Beyond it the service stops reading and closes.
 */
export const refusedBodyFactor = 4;

/** The most bytes a refused body may be, in all, for the service to read it to its end. */
export function refusedBodyBound(bodyLimit: number): number {
  return refusedBodyFactor * bodyLimit;
}

/** The error of a body over `bodyLimit` bytes, saying the limit. */
export function bodyTooLarge(bodyLimit: number): ErrorObject {
  return {
    code: 'PAYLOAD_TOO_LARGE',
    message: `The request body is larger than ${bodyLimit} bytes, the most this service accepts; send a smaller body.`,
    details: { reason: 'FST_ERR_CTP_BODY_TOO_LARGE', limit_bytes: bodyLimit },
  };
}

/**
 * Prepares the 413 of a body over the route's limit so the client receives it: the rest of the body is
 * read and thrown away first (up to `refusedBodyBound`), and then the connection, clean again, stays
 * open. A body that declares more than the bound, or goes on past it, is answered at once and the
 * connection closed (Fastify's `Connection: close`): the service is not made to read gigabytes, and
 * such a client may see its connection reset instead of the answer. Answers the error body to send.
 */
export async function refuseTooLargeBody(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ error: ErrorObject }> {
  const bodyLimit = request.routeOptions.bodyLimit;
  // A declared length is refused before a byte of the body is read; a chunked one once past the limit.
  const alreadyRead = request.headers['content-length'] === undefined ? bodyLimit : 0;
  if (await discardBody(request.raw, refusedBodyBound(bodyLimit) - alreadyRead)) {
    // Fastify asked to close because the client might still be sending; it no longer is.
    reply.removeHeader('connection');
  }
  reply.status(413);
  return { error: bodyTooLarge(bodyLimit) };
}

/**
 * Reads what is left of a request body and throws it away: true once it ended, false when it declares or
 * sends more than `budget` further bytes (then it is left unread) or the client went away.
 */
function discardBody(body: IncomingMessage, budget: number): Promise<boolean> {
  if (body.readableEnded) return Promise.resolve(true);
  if (body.destroyed || Number(body.headers['content-length']) > budget) return Promise.resolve(false);
  return new Promise((resolve) => {
    let discarded = 0;
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > budget) settle(false);
    };
    const onEnd = () => settle(true);
    const onGone = () => settle(false);
    function settle(ended: boolean) {
      body.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      if (!ended) body.pause();
      resolve(ended);
    }
    body.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
    body.resume();
  });
}
