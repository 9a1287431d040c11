import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SlidingWindowLimiter } from '../rate/index.ts';
import { ApiKey, offeredKey } from './api-key.ts';
import { HostAllowList, hostnameOf } from './hosts.ts';
import { OriginAllowList } from './origins.ts';
import { recordPrivilege } from './privilege.ts';

export interface RequestGuardOptions {
  /** The service's name in refusals ("keel-web", "the workbench"). */
  service: string;
  /** The bearer key every route but the open ones needs; undefined: no key, every request passes. */
  apiKey?: string | undefined;
  /** Host names answered besides loopback (`--allowed-host`); everything else is refused (DNS rebinding). */
  allowedHosts?: readonly string[];
  /** Origins besides the service's own that may change state or open a WebSocket (the CORS list). */
  allowedOrigins?: readonly string[];
  /** Routes open without the key, judged on the route the router matched (its pattern, e.g. `/docs/*`). */
  isOpenRoute(route: string): boolean;
  /** WebSocket routes: their handler asks the returned authorizer (which also accepts `?token=`). */
  isSocketRoute(route: string): boolean;
  /** How a user allows another host or origin on purpose, for the refusals (flags, variables). */
  howToAllow: { host: string; origin: string; key: string };
  /** Told of each refused key (for the audit log), at most `auditPerMinute` times a minute per client. */
  onAuthFailure?: (request: FastifyRequest, reason: string) => void;
  /** Wrong keys a client may offer per minute before its wrong keys get 429 instead of 401 (default 10). */
  guessesPerMinute?: number;
  /** Refused requests per client and minute that reach `onAuthFailure` (default 30); the rest are not recorded. */
  auditPerMinute?: number;
  /** The clock of those windows (default Date.now). */
  now?: () => number;
}

/** Whether a WebSocket upgrade may connect; false: the handler closes with 4001. */
export type SocketAuthorizer = (request: FastifyRequest) => boolean;

/** Methods a browser sends cross-site without asking (a link, an image): they must not change anything. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

type Verdict =
  | { ok: true }
  | { ok: false; status: 401 | 429; code: string; message: string; details?: Record<string, unknown> };

/**
 * The one guard of Keel's local services, run before anything else on every request:
 * 1. `Host` must be loopback, the address the connection came in on, or listed (no DNS rebinding);
 * 2. a state-changing request or a WebSocket upgrade that carries an `Origin` must come from the service's
 *    own origin or an allowed one (no cross-site requests, no cross-site WebSockets);
 * 3. with a key, every route but the open ones needs it, decided on the route the router matched, never
 *    on the raw URL (`/%61pi/…` is `/api/…`); wrong keys are rate limited per client before any audit,
 *    and the right key always passes (a flood of wrong ones from any local process must not lock out the
 *    owner; a key is meant to be too long to guess, so answering it honestly gives a guesser nothing);
 * 4. it records whether the request may choose a program the service runs (`privilegedChangeRefusal`):
 *    no `Origin` (not a web page), the service's own origin, or the right key; a listed origin alone is not
 *    enough.
 * Refusals are in the services' error shape and say how to allow the thing on purpose.
 */
export function installRequestGuard(app: FastifyInstance, options: RequestGuardOptions): SocketAuthorizer {
  const hosts = new HostAllowList(options.allowedHosts);
  const origins = new OriginAllowList(options.allowedOrigins);
  const key = options.apiKey ? new ApiKey(options.apiKey) : undefined;
  const now = options.now ?? Date.now;
  const guesses = new SlidingWindowLimiter({ windowMs: 60_000, max: options.guessesPerMinute ?? 10, now });
  const audits = new SlidingWindowLimiter({ windowMs: 60_000, max: options.auditPerMinute ?? 30, now });

  const authenticate = (request: FastifyRequest, allowQuery: boolean): Verdict => {
    if (!key) return { ok: true };
    const offered = offeredKey(request, allowQuery);
    const client = request.ip;
    if (offered !== undefined) {
      // The right key always passes: every local process shares one address, so refusing the owner after
      // someone else's wrong keys would be a lockout anyone on the machine could cause.
      if (key.matches(offered)) return { ok: true };
      // Over the limit, a wrong key is refused as a flood, neither audited nor counted further.
      const room = guesses.hit(client);
      if (!room.allowed) {
        return {
          ok: false,
          status: 429,
          code: 'RATE_LIMITED',
          message:
            `Too many wrong API keys from ${client}: wrong keys are refused for ${room.retryAfterSeconds} s ` +
            'more; the right key still works.',
          details: { retry_after_seconds: room.retryAfterSeconds },
        };
      }
    }
    const reason = offered === undefined ? 'missing API key' : 'invalid API key';
    if (audits.hit(client).allowed) options.onAuthFailure?.(request, reason);
    return {
      ok: false,
      status: 401,
      code: 'AUTHENTICATION_FAILED',
      message:
        offered === undefined
          ? `Missing API key: send Authorization: Bearer <key> (${options.howToAllow.key}).`
          : 'Invalid API key.',
    };
  };

  app.addHook('onRequest', async (request, reply) => {
    const upgrade = (request.headers.upgrade ?? '').toLowerCase() === 'websocket';
    // A refused upgrade's socket belongs to no HTTP exchange Node will end: end it once the refusal is out.
    if (upgrade) reply.raw.once('finish', () => request.raw.socket.end());
    const hostHeader = request.headers.host;
    // Every browser sends Host; a client that sends none is not a web page and cannot be rebound.
    if (hostHeader !== undefined) {
      const hostname = hostnameOf(hostHeader);
      if (hostname === undefined || !hosts.allows(hostname, request.socket.localAddress)) {
        return refuse(reply, 403, 'PERMISSION_DENIED', hostRefusal(options, hostHeader), {
          reason: 'host_not_allowed',
          host: hostHeader.slice(0, 300),
        });
      }
    }
    const origin = request.headers.origin;
    if (origin !== undefined && (upgrade || !safeMethods.has(request.method))) {
      if (!origins.allows(origin, hostHeader)) {
        return refuse(reply, 403, 'PERMISSION_DENIED', originRefusal(options, origin), {
          reason: 'origin_not_allowed',
          origin: origin.slice(0, 300),
        });
      }
    }
    // No Origin: not a web page (the CLI, curl, a program). The own origin: the service's own page.
    const own = origin === undefined || origins.isOwn(origin, hostHeader);
    const notPrivileged = {
      privileged: false as const,
      origin: origin ?? '',
      service: options.service,
      keyHint: options.howToAllow.key,
    };
    recordPrivilege(
      request,
      own ? { privileged: true, why: origin === undefined ? 'no_origin' : 'own_origin' } : notPrivileged,
    );
    const route = request.routeOptions.url;
    if (route !== undefined && (options.isOpenRoute(route) || options.isSocketRoute(route))) return;
    if (request.method === 'OPTIONS' && route === undefined) return; // CORS preflights carry no credentials
    const verdict = authenticate(request, false);
    if (verdict.ok) {
      // The right key makes any allowed origin privileged (without a key configured, `ok` proves nothing).
      if (key && !own) recordPrivilege(request, { privileged: true, why: 'api_key' });
      return;
    }
    if (verdict.status === 429) reply.header('Retry-After', verdict.details?.retry_after_seconds);
    return refuse(reply, verdict.status, verdict.code, verdict.message, verdict.details);
  });

  return (request) => authenticate(request, true).ok;
}

function refuse(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): FastifyReply {
  return reply.status(status).send({ error: { code, message, ...(details ? { details } : {}) } });
}

function hostRefusal(options: RequestGuardOptions, host: string): string {
  return (
    `Host '${host.slice(0, 100)}' is not allowed: ${options.service} answers only loopback names ` +
    `(localhost, 127.0.0.1, [::1]) and the hosts you list, so that no web page can reach it through DNS ` +
    `rebinding. To allow this host on purpose: ${options.howToAllow.host}.`
  );
}

function originRefusal(options: RequestGuardOptions, origin: string): string {
  return (
    `Origin '${origin.slice(0, 100)}' is not allowed: ${options.service} takes state-changing requests and ` +
    `WebSockets only from its own pages and the origins you list, so that no other web site can drive it. ` +
    `To allow this origin on purpose: ${options.howToAllow.origin}.`
  );
}
