import type { SeededRandom } from '@keel/testkit';
import type { ArmedKill } from './crash-worker.ts';

/**
 * Where a trial kills its worker. Three kinds are armed inside the worker, at instants only it can hit:
 * right after an event is stored (`append`: before the step's checkpoint), right after a checkpoint
 * (`checkpoint`), inside a lease renewal (`renewal`). Three come from the test process, which polls the
 * store: a while after a tool starts (`tool`: mid-tool), after a streamed delta (`stream`: mid-stream), or
 * a random time after the worker started (`delay`: anywhere, waits for approvals included).
 */
export type KillPlan =
  | { kind: 'append' | 'checkpoint' | 'renewal'; armed: ArmedKill }
  | { kind: 'tool' | 'stream'; type: string; occurrence: number; delayMs: number }
  | { kind: 'delay'; delayMs: number };

export const killKinds = ['append', 'checkpoint', 'renewal', 'tool', 'stream', 'delay'] as const;
export type KillKind = (typeof killKinds)[number];

/** What an uninterrupted run of the workflow looks like: the ranges kill points are drawn from. */
export interface ReferenceShape {
  events: { seq: number; type: string }[];
  checkpoints: number;
  durationMs: number;
}

/**
 * A kill point of `kind`. `after` is the run's last seq when this worker starts (its events come later),
 * `counts` the events of each type stored so far (occurrences count on from there).
 */
export function chooseKill(
  random: SeededRandom,
  kind: KillKind,
  reference: ReferenceShape,
  after: number,
  counts: Record<string, number>,
): KillPlan {
  const total = reference.events.length;
  const countOf = (type: string) => reference.events.filter((event) => event.type === type).length;
  switch (kind) {
    case 'append':
      return { kind, armed: { kind: 'append', seq: after + random.int(1, Math.max(1, total - after)) } };
    case 'checkpoint':
      return { kind, armed: { kind: 'checkpoint', nth: random.int(1, reference.checkpoints) } };
    case 'renewal':
      return {
        kind,
        armed: { kind: 'renewal', nth: random.int(1, 3), when: random.pick(['before', 'after'] as const) },
      };
    case 'tool':
      return {
        kind,
        type: 'tool_call',
        occurrence: (counts.tool_call ?? 0) + random.int(1, Math.max(1, countOf('tool_call') - 1)),
        // The commands linger 100 ms after writing their token: most of these land while one runs.
        delayMs: random.int(0, 90),
      };
    case 'stream': {
      const type = random.pick(['text_delta', 'text_delta', 'thinking'] as const);
      return {
        kind,
        type,
        occurrence: (counts[type] ?? 0) + random.int(1, Math.max(1, countOf(type) - 1)),
        delayMs: random.int(0, 3),
      };
    }
    case 'delay':
      return { kind, delayMs: random.int(0, Math.max(1, reference.durationMs)) };
  }
}

/** Where a kill landed, read from the run's status and the events stored before it. */
export function landing(plan: KillPlan, events: { type: string }[], status: string): string {
  if (status === 'waiting') return 'idle, the run waiting for approval';
  if (plan.kind === 'renewal') return 'lease renewal';
  const last = events.at(-1)?.type;
  if (!last) return 'before any event';
  const lastCall = events.findLastIndex((event) => event.type === 'tool_call');
  const lastResult = events.findLastIndex((event) => event.type === 'tool_result');
  if (lastCall > lastResult) return 'mid-tool';
  if (last === 'text_delta' || last === 'thinking') return 'mid-stream';
  if (plan.kind === 'checkpoint') return 'after a checkpoint';
  return `after ${last}`;
}
