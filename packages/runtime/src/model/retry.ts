import { APIError } from 'openai/core/error';
import type { KeelError } from '../errors/index.ts';

/** How model calls are retried on 429, 5xx and connection failures. */
export interface RetryPolicy {
  /** Total attempts including the first (default 4: one try and three retries). */
  maxAttempts: number;
  /** Delay before the first retry; doubles each time (default 1000 ms). */
  baseDelayMs: number;
  /** Upper bound of a delay Keel chooses itself (default 30 s). */
  maxDelayMs: number;
  /** Upper bound of a delay the server asks for with Retry-After (default 60 s): a longer one is cut to it. */
  maxRetryAfterMs: number;
  /**
   * How long in all a server answering 503 while it loads the model is waited for (default 3 minutes): a
   * local model can take tens of seconds to load, far longer than the retries of any other failure last.
   */
  maxLoadingWaitMs: number;
  /** Delay between tries while the model loads, unless the server asks for another (default 5 s). */
  loadingDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  maxLoadingWaitMs: 180_000,
  loadingDelayMs: 5_000,
};

/** What a failed attempt says about trying again. */
export interface FailedAttempt {
  retryable: boolean;
  /** The server is still loading the model (a 503 saying so): waited for by its own, longer rule. */
  loading: boolean;
  /** What the server's Retry-After asked for, when it sent one. */
  retryAfterMs: number | undefined;
}

/** The retries of one turn so far: ordinary failures and model loading are counted apart. */
export interface RetryCount {
  /** Ordinary failed attempts so far. */
  failures: number;
  /** Tries that met a loading model so far, and the time waited for it. */
  loadingTries: number;
  loadingWaitedMs: number;
}

/** The next retry: how long to wait, and how it is announced (the `retry` event's attempt of max_attempts). */
export interface RetryStep {
  delayMs: number;
  attempt: number;
  maxAttempts: number;
  /** Why this wait: the server asked for it, or it loads the model; undefined for Keel's own backoff. */
  told?: 'retry-after' | 'loading';
  /** The server asked for longer than Keel waits (maxRetryAfterMs): the wait was cut to it. */
  cut?: boolean;
}

/**
 * Whether and when to try again after a failed attempt (updating `count`); undefined when the failure is
 * final: not retryable, out of attempts, or the model still loading after `maxLoadingWaitMs`.
 */
export function nextRetry(
  policy: RetryPolicy,
  failed: FailedAttempt,
  count: RetryCount,
): RetryStep | undefined {
  if (!failed.retryable) return undefined;
  const asked = failed.retryAfterMs;
  const cut = asked !== undefined && asked > policy.maxRetryAfterMs;
  const told = asked === undefined ? undefined : Math.min(asked, policy.maxRetryAfterMs);
  if (failed.loading) {
    const delayMs = told ?? policy.loadingDelayMs;
    if (count.loadingWaitedMs + delayMs > policy.maxLoadingWaitMs) return undefined;
    count.loadingTries += 1;
    count.loadingWaitedMs += delayMs;
    const maxAttempts = 1 + Math.ceil(policy.maxLoadingWaitMs / Math.max(1, policy.loadingDelayMs));
    return {
      delayMs,
      attempt: count.loadingTries + 1,
      maxAttempts,
      told: 'loading',
      ...(cut ? { cut } : {}),
    };
  }
  count.failures += 1;
  if (count.failures >= policy.maxAttempts) return undefined;
  const delayMs = told ?? backoffMs(policy, count.failures);
  return {
    delayMs,
    attempt: count.failures + 1,
    maxAttempts: policy.maxAttempts,
    ...(told === undefined ? {} : { told: 'retry-after' as const }),
    ...(cut ? { cut } : {}),
  };
}

/** Delay before retry number `retry` (1-based): exponential with jitter. */
function backoffMs(policy: RetryPolicy, retry: number): number {
  const exponential = policy.baseDelayMs * 2 ** (retry - 1);
  const jitter = 0.8 + Math.random() * 0.4;
  return Math.min(Math.round(exponential * jitter), policy.maxDelayMs);
}

/** A delay in the words of a retry notice: "5 s", "1.5 s", "20 ms". */
export function spokenDelay(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
}

/** What a retry notice adds to the error: how long Keel waits, when the server told it how long or why. */
export function waitWords(step: RetryStep, policy: RetryPolicy): string {
  const wait = spokenDelay(step.delayMs);
  const cut = step.cut
    ? ` (it asked for longer; Keel waits at most ${spokenDelay(policy.maxRetryAfterMs)})`
    : '';
  if (step.told === 'loading') {
    return ` Keel waits ${wait}${cut} and tries again, for up to ${spokenDelay(policy.maxLoadingWaitMs)} in all while the model loads.`;
  }
  if (step.told === 'retry-after') return ` Waiting ${wait}${cut}, as the server's Retry-After asked.`;
  return '';
}

/** What the server asked to wait before trying again, in ms, when it said (see retryAfterOf). */
export function retryAfterMs(error: KeelError): number | undefined {
  const cause = error.cause;
  return cause instanceof APIError ? retryAfterOf(cause.headers) : undefined;
}

/**
 * The wait an answer's headers ask for, in ms: OpenAI's `retry-after-ms`, else `Retry-After` in seconds or
 * as an HTTP date (RFC 9110 §10.2.3), counted from the answer's own `Date` so that the two clocks may differ.
 */
export function retryAfterOf(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const sent = Date.parse(headers?.get('date') ?? '');
  return Math.max(0, at - (Number.isNaN(sent) ? now() : sent));
}
