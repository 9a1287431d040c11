import type { Step } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { formatStepWorkers } from '../src/commands/step-workers.ts';

function step(id: string, worker_id: string | null): Step {
  return {
    id,
    run_id: 'run_1',
    node_id: 'agent',
    kind: 'model_turn',
    status: 'succeeded',
    attempt: 1,
    worker_id,
    detail: {},
    error: null,
    started_at: '2026-01-01T00:00:00.000Z',
    ended_at: null,
  };
}

describe("keel runs show's Ran by", () => {
  test('one worker for every step: named once', () => {
    expect(formatStepWorkers([step('stp_1', 'box:1:aa'), step('stp_2', 'box:1:aa')])).toBe(
      'Ran by     box:1:aa (all 2 steps)',
    );
    expect(formatStepWorkers([step('stp_1', 'box:1:aa')])).toBe('Ran by     box:1:aa (its one step)');
  });

  test('a run that changed hands: each worker with the steps it ran, in order', () => {
    expect(
      formatStepWorkers([
        step('stp_1', 'web:box:1:aa'),
        step('stp_2', 'web:box:1:aa'),
        step('stp_3', 'box:2:bb'),
        step('stp_4', null),
      ]),
    ).toBe(
      [
        'Ran by     web:box:1:aa    steps stp_1 … stp_2 (2)',
        '           box:2:bb        step stp_3',
        '           (not recorded)  step stp_4',
      ].join('\n'),
    );
  });

  test('steps recorded before worker ids were, or none: nothing to say', () => {
    expect(formatStepWorkers([step('stp_1', null)])).toBeNull();
    expect(formatStepWorkers([])).toBeNull();
  });

  test('a worker id is printed terminal-safe', () => {
    expect(formatStepWorkers([step('stp_1', 'evil\u001b[2J')])).not.toContain('\u001b');
  });
});
