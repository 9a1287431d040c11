import { type BreakerLimits, checkBreaker, loopError } from '../agent/index.ts';
import { CircuitBreakerError } from '../errors/index.ts';
import type { EventBody } from '../events/index.ts';
import type { SchedulerState } from '../workflow/index.ts';

interface BudgetFields {
  max_steps?: number;
  max_tokens?: number;
  max_cost_usd?: number;
}

/**
 * The run's budgets in the spec's order (§8 rule 2: request fields override configuration for one run):
 * the request's own, then the workflow's, then configuration (`limits` holds request over configuration).
 * 0 means no limit.
 */
export function runLimits(
  request: BudgetFields,
  workflow: BudgetFields | undefined,
  limits: BreakerLimits,
): BreakerLimits {
  return {
    ...limits,
    max_steps: request.max_steps ?? workflow?.max_steps ?? limits.max_steps,
    max_tokens: request.max_tokens ?? workflow?.max_tokens ?? limits.max_tokens,
    max_cost_usd: request.max_cost_usd ?? workflow?.max_cost_usd ?? limits.max_cost_usd,
  };
}

/**
 * The circuit breaker over one run's spending: counts tool steps into the scheduler state (tokens and cost
 * are counted when a step commits) and trips, announced by a `circuit_breaker` event, when a limit is
 * exceeded or the agent loops.
 */
export class RunBudget {
  readonly limits: BreakerLimits;
  readonly #state: SchedulerState;
  readonly #emit: (body: EventBody) => Promise<void>;

  constructor(limits: BreakerLimits, state: SchedulerState, emit: (body: EventBody) => Promise<void>) {
    this.limits = limits;
    this.#state = state;
    this.#emit = emit;
  }

  /** Counts tool-call steps; with `enforce`, throws once a budget is exceeded. */
  async spend(delta: { tokens: number; steps: number }, enforce: boolean): Promise<void> {
    this.#state.tool_steps += delta.steps;
    if (!enforce) return;
    try {
      checkBreaker(this.limits, this.#used());
    } catch (error) {
      if (error instanceof CircuitBreakerError) await this.#trip(error);
      throw error;
    }
  }

  /** Trips the breaker for a detected loop. */
  loop(similarity: number): Promise<never> {
    return this.#trip(loopError(this.limits, similarity, this.#used()));
  }

  #used() {
    const state = this.#state;
    return {
      tokens: state.usage.input_tokens + state.usage.output_tokens,
      costUsd: state.cost_usd,
      steps: state.tool_steps,
    };
  }

  /** Announces a tripped circuit breaker with a `circuit_breaker` event, then throws its error. */
  async #trip(error: CircuitBreakerError): Promise<never> {
    const details = error.details as { reason: string; tokens_used: number; cost_usd: number };
    await this.#emit({ type: 'circuit_breaker', ...details });
    throw error;
  }
}
