import { CircuitBreakerError } from '../errors/index.ts';

/** Limits of one run (spec section 8). A limit of 0 means none. */
export interface BreakerLimits {
  enabled: boolean;
  max_tokens: number;
  max_cost_usd: number;
  max_steps: number;
  /** Tool turns compared by the loop check. */
  loop_detect_turns: number;
  /** Similarity at or above which those turns count as a loop. */
  loop_similarity_threshold: number;
}

export const defaultBreakerLimits: BreakerLimits = {
  enabled: true,
  max_tokens: 200_000,
  max_cost_usd: 5.0,
  max_steps: 0,
  loop_detect_turns: 6,
  loop_similarity_threshold: 0.9,
};

export interface BreakerState {
  tokens: number;
  costUsd: number;
  steps: number;
}

/** Throws CircuitBreakerError when the run has gone past one of its limits. */
export function checkBreaker(limits: BreakerLimits, state: BreakerState): void {
  if (!limits.enabled) return;
  const details = { tokens_used: state.tokens, cost_usd: state.costUsd };
  if (limits.max_tokens > 0 && state.tokens > limits.max_tokens) {
    const reason = `token limit exceeded: ${state.tokens} > ${limits.max_tokens}`;
    throw new CircuitBreakerError(`Circuit breaker: ${reason}.`, { reason, ...details });
  }
  if (limits.max_cost_usd > 0 && state.costUsd > limits.max_cost_usd) {
    const reason = `cost limit exceeded: $${state.costUsd.toFixed(4)} > $${limits.max_cost_usd}`;
    throw new CircuitBreakerError(`Circuit breaker: ${reason}.`, { reason, ...details });
  }
  if (limits.max_steps > 0 && state.steps > limits.max_steps) {
    const reason = `step limit exceeded: ${state.steps} > ${limits.max_steps} tool-call steps`;
    throw new CircuitBreakerError(`Circuit breaker: ${reason}.`, { reason, ...details });
  }
}

/** The breaker's error for an agent found repeating itself (see loop-detector.ts). */
export function loopError(
  limits: BreakerLimits,
  similarity: number,
  state: BreakerState,
): CircuitBreakerError {
  const percent = Math.floor(similarity * 100);
  const reason = `loop detected: the tool calls and results of the last ${limits.loop_detect_turns} turns are ${percent}% alike`;
  return new CircuitBreakerError(`Circuit breaker: ${reason}.`, {
    reason,
    tokens_used: state.tokens,
    cost_usd: state.costUsd,
  });
}
