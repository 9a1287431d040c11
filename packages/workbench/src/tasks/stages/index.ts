import { buildFlow } from '../states.ts';
import { codingStage } from './coding/index.ts';
import { initStage } from './init/index.ts';
import { planStage } from './plan/index.ts';
import { reviewStage } from './review/index.ts';
import type { StageModule } from './stage.ts';
import { todosStage } from './todos/index.ts';

export type { StageModule } from './stage.ts';

/**
 * The registry: the five stages of spec section 1, in order. The table of moves, `GET /api/flow` and the
 * service's wiring (routes, turn-end handlers) are built from it; `createWorkbench({stages})` takes another
 * list (README: "Adding a stage").
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
