import { ConfigError, type RuntimeConfig } from '@keel/runtime';
import { SlidingWindowLimiter } from '@keel/service';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBody } from './errors.ts';

/** Overrides of the configured window, for embedding callers and tests. */
export interface RateLimitOverrides {
  windowMs?: number;
  max?: number;
  /** The clock the window slides by (default Date.now); tests move it instead of waiting. */
  now?: () => number;
}

export interface RateLimitSettings {
  windowMs: number;
  max: number;
  now?: () => number;
}

/** Paths never limited: a load balancer's health probe must not be refused. */
const unlimited = new Set(['/health', '/api/health']);

const configured = z.looseObject({
  enabled: z.boolean().optional(),
  window_seconds: z.number().positive().default(60),
  max_requests: z.number().int().positive().default(120),
});

/**
 * The limiter's settings from configuration `rate_limit` (spec section 8): null unless `enabled` is true.
 * Our defaults, where the spec leaves them open: 120 requests per 60-second window.
 */
export function rateLimitSettings(
  config: RuntimeConfig,
  overrides: RateLimitOverrides = {},
): RateLimitSettings | null {
  if (config.rate_limit?.enabled !== true) return null;
  const parsed = configured.safeParse(config.rate_limit);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `rate_limit.${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid rate_limit configuration: ${problems.join('; ')}`, { problems });
  }
  return {
    windowMs: overrides.windowMs ?? parsed.data.window_seconds * 1000,
    max: overrides.max ?? parsed.data.max_requests,
    ...(overrides.now ? { now: overrides.now } : {}),
  };
}

/**
 * Limits requests per client IP with a sliding window. Installed after authentication, so only
 * authenticated requests count. Every limited response carries `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining`; a refused one also `Retry-After`, as 429 RATE_LIMITED.
 */
export function installRateLimit(app: FastifyInstance, settings: RateLimitSettings): void {
  const limiter = new SlidingWindowLimiter(settings);
  app.addHook('onRequest', async (request, reply) => {
    if (unlimited.has(request.url.split('?')[0] ?? '')) return;
    const decision = limiter.hit(request.ip);
    // On the raw response, so the headers also reach streams that take over the reply (SSE).
    reply.raw.setHeader('X-RateLimit-Limit', decision.limit);
    reply.raw.setHeader('X-RateLimit-Remaining', decision.remaining);
    if (decision.allowed) return;
    reply.raw.setHeader('Retry-After', decision.retryAfterSeconds);
    return reply.status(429).send(
      errorBody({
        code: 'RATE_LIMITED',
        message: `Rate limit exceeded: at most ${decision.limit} requests per ${settings.windowMs / 1000} s; retry in ${decision.retryAfterSeconds} s.`,
        details: {
          limit: decision.limit,
          window_seconds: settings.windowMs / 1000,
          retry_after_seconds: decision.retryAfterSeconds,
        },
      }),
    );
  });
}
