import { expect, test } from 'vitest';
import { defaultBreakerLimits } from '../../src/agent/index.ts';
import type { EventBody } from '../../src/events/index.ts';
import { RunBudget, runLimits } from '../../src/runs/run-budget.ts';
import { newSchedulerState } from '../../src/workflow/index.ts';

const configured = { ...defaultBreakerLimits, max_steps: 30, max_tokens: 3000, max_cost_usd: 3 };

test('run limits: the request over the workflow over configuration, field by field', () => {
  expect(runLimits({ max_steps: 1 }, { max_steps: 2, max_tokens: 20 }, configured)).toEqual({
    ...configured,
    max_steps: 1,
    max_tokens: 20,
    max_cost_usd: 3,
  });
  expect(runLimits({}, undefined, configured)).toEqual(configured);
});

test('the budget counts steps, trips with a circuit_breaker event only when enforcing', async () => {
  const state = newSchedulerState();
  const events: EventBody[] = [];
  const budget = new RunBudget({ ...configured, enabled: true, max_steps: 2 }, state, async (event) => {
    events.push(event);
  });
  await budget.spend({ tokens: 0, steps: 3 }, false);
  expect(state.tool_steps).toBe(3);
  expect(events).toEqual([]);
  await expect(budget.spend({ tokens: 0, steps: 0 }, true)).rejects.toMatchObject({
    code: 'CIRCUIT_BREAKER',
  });
  expect(events.map((event) => event.type)).toEqual(['circuit_breaker']);
});
