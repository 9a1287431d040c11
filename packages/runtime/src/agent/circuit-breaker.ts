import { CircuitBreakerError } from '../errors/index.ts';

/** Limits of one run (spec section 8). A limit of 0 means none. */
export interface BreakerLimits {
  enabled: boolean;
  max_tokens: number;
  max_cost_usd: number;
  max_steps: number;
}

export const defaultBreakerLimits: BreakerLimits = {
  enabled: true,
  max_tokens: 200_000,
  max_cost_usd: 5.0,
  max_steps: 0,
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
