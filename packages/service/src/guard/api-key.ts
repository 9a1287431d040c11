import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A configured API key, compared in constant time over fixed-length digests: neither the key's length nor
 * how much of a guess was right shows in the time an answer takes.
 */
export class ApiKey {
  readonly #digest: Buffer;

  constructor(key: string) {
    this.#digest = digest(key);
  }

  matches(offered: string): boolean {
    return timingSafeEqual(digest(offered), this.#digest);
  }
}

/**
 * The key a request offers: `Authorization: Bearer <key>` (the scheme in any case), or for a WebSocket
 * upgrade `?token=<key>` (browsers cannot set headers on one). Undefined when it offers none.
 */
export function offeredKey(request: FastifyRequest, allowQuery: boolean): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^bearer\s+(.*)$/i.exec(header.trim());
    return match ? (match[1] ?? '').trim() : header;
  }
  if (!allowQuery) return undefined;
  const token = (request.query as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}
