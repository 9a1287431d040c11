/** How model calls are retried on 429, 5xx and connection failures. */
export interface RetryPolicy {
  /** Total attempts including the first (default 4: one try and three retries). */
  maxAttempts: number;
  /** Delay before the first retry; doubles each time (default 1000 ms). */
  baseDelayMs: number;
  /** Upper bound of any delay, including one asked for by Retry-After (default 30 s). */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Delay before retry number `retry` (1-based): exponential with jitter, or what Retry-After asked. */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, policy.maxDelayMs);
  const exponential = policy.baseDelayMs * 2 ** (retry - 1);
  const jitter = 0.8 + Math.random() * 0.4;
  return Math.min(Math.round(exponential * jitter), policy.maxDelayMs);
}
