import type { Step } from '@keel/runtime';
import { terminalSafe } from '../render/terminal-safe.ts';

/**
 * `keel runs show`'s `Ran by` lines: the run's one worker, or, when it changed hands (a recovery, a
 * resume elsewhere), each worker with the steps it ran, in order. Null when no step names its worker
 * (steps recorded before worker ids were).
 */
export function formatStepWorkers(steps: Step[]): string | null {
  if (!steps.some((step) => step.worker_id)) return null;
  const spans: { worker: string | null; steps: Step[] }[] = [];
  for (const step of steps) {
    const span = spans.at(-1);
    if (span && span.worker === step.worker_id) span.steps.push(step);
    else spans.push({ worker: step.worker_id, steps: [step] });
  }
  const name = (worker: string | null) => worker ?? '(not recorded)';
  if (spans.length === 1) {
    const count = steps.length;
    return terminalSafe(
      `Ran by     ${name(spans[0]!.worker)} (${count === 1 ? 'its one step' : `all ${count} steps`})`,
    );
  }
  const width = Math.max(...spans.map(({ worker }) => name(worker).length));
  const lines = spans.map(({ worker, steps: ran }) => {
    const which =
      ran.length === 1 ? `step ${ran[0]!.id}` : `steps ${ran[0]!.id} … ${ran.at(-1)!.id} (${ran.length})`;
    return `${name(worker).padEnd(width)}  ${which}`;
  });
  return terminalSafe(
    lines.map((line, index) => `${index ? ' '.repeat(11) : 'Ran by     '}${line}`).join('\n'),
  );
}
