import { buildFlow } from '../states.ts';
import { codingStage } from './coding/index.ts';
import { initStage } from './init/index.ts';
import { planStage } from './plan/index.ts';
import { reviewStage } from './review/index.ts';
import type { StageModule } from './stage.ts';
import { todosStage } from './todos/index.ts';

export type { StageEntry, StageModule } from './stage.ts';

/**
 * The registry: the five stages of spec section 1, in order (their numbers are their places here). The
 * table of moves, `GET /api/flow` and the service's wiring (routes, hand-offs, turn-end handlers) are built
 * from it; `createWorkbench({stages})` takes another list, e.g. `withStage(defaultStages, extra, {before:
 * 'review'})` (README: "Adding a stage").
 */
export const defaultStages: readonly StageModule[] = [
  initStage,
  planStage,
  todosStage,
  codingStage,
  reviewStage,
];

/** The flow of the default registry. */
export const defaultFlow = buildFlow(defaultStages);

/**
 * `stages` with `stage` inserted before the stage keyed `before` (or after the one keyed `after`; at the end
 * with neither). The stages after it are numbered on, and the 'next' of the one before it leads into it.
 */
export function withStage(
  stages: readonly StageModule[],
  stage: StageModule,
  place: { before?: string; after?: string } = {},
): StageModule[] {
  const key = place.before ?? place.after;
  if (key === undefined) return [...stages, stage];
  const index = stages.findIndex((each) => each.key === key);
  if (index < 0) throw new Error(`No stage of the flow has the key '${key}'.`);
  const at = place.before === undefined ? index + 1 : index;
  return [...stages.slice(0, at), stage, ...stages.slice(at)];
}
