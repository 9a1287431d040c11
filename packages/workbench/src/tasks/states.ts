import { taskStates } from '@keel/protocol/workbench/names';
import { WorkbenchError } from '../errors.ts';
import type { Flow, FlowState, Move, StageModule } from './stages/stage.ts';

// The flow's types sit with the stage module (stages/stage.ts): a flow holds its modules, a module is given
// the task deps, and the deps hold the flow.
export type { Flow, FlowStage, FlowState, Move, TaskState } from './stages/stage.ts';

/** The task states of spec section 3, and CANCELLED (the workbench's addition, see the decision record). */
export { taskStates };

/**
 * Builds the flow from the registry: the stages numbered in registry order ('01', '02'…), the table the
 * stages' rows (each 'next' the following stage's first state), then cancel and re-open.
 */
export function buildFlow(modules: readonly StageModule[]): Flow {
  const keys = new Set<string>();
  const owner = new Map<FlowState, StageModule>();
  for (const stage of modules) {
    if (keys.has(stage.key)) throw new Error(`Two stages of the flow have the key '${stage.key}'.`);
    keys.add(stage.key);
    for (const state of stage.states) {
      const other = owner.get(state);
      if (other)
        throw new Error(`The state ${state} belongs to two stages: '${other.key}' and '${stage.key}'.`);
      owner.set(state, stage);
    }
  }
  const staged = modules.flatMap((stage) => stage.states);
  // Every state a task works in can be cancelled; a stage's final states (DONE) cannot.
  const final = new Set(modules.flatMap((stage) => stage.final ?? []));
  const active = staged.filter((state) => !final.has(state));
  const moves: Move[] = [
    ...modules.flatMap((stage, index) =>
      stage.moves.map((move) => handedOn(move, stage, modules[index + 1])),
    ),
    {
      action: 'cancel',
      by: 'user',
      from: active,
      to: 'CANCELLED',
      trigger: 'POST /api/tasks/{id}/cancel (stops its running sessions)',
    },
    {
      action: 'reopen',
      by: 'user',
      from: ['CANCELLED'],
      to: 'previous',
      trigger: 'POST /api/tasks/{id}/reopen',
    },
  ];
  const allowedActions = (state: FlowState) =>
    moves.filter((move) => move.from.includes(state)).map((move) => move.action);
  return {
    modules,
    stages: modules.map(({ key, title, states }, index) => ({
      number: String(index + 1).padStart(2, '0'),
      key,
      title,
      states: [...states],
    })),
    states: [...new Set<FlowState>([...taskStates, ...staged])],
    moves,
    stageOf: (state) => owner.get(state),
    allowedActions,
    nextState(state, action, cancelledFrom) {
      const move = moves.find((each) => each.action === action && each.from.includes(state));
      if (!move) {
        throw new WorkbenchError(
          'INVALID_STATE',
          `A task in state ${state} cannot ${action.replaceAll('_', ' ')}; allowed now: ${allowedActions(state).join(', ') || 'nothing'}.`,
          { state, action, allowed: allowedActions(state) },
        );
      }
      if (move.to === 'same') return state;
      if (move.to !== 'previous') return move.to;
      return cancelledFrom ?? 'CREATED';
    },
    canMove(state, action) {
      return moves.some((move) => move.action === action && move.from.includes(state));
    },
  };
}

/** A stage's row with its 'next' made the following stage's first state. */
function handedOn(move: Move, stage: StageModule, following: StageModule | undefined): Move {
  if (move.to !== 'next') return move;
  const first = following?.states[0];
  if (!first) {
    throw new Error(
      `The move '${move.action}' of stage '${stage.key}' leads to the next stage, and none follows it.`,
    );
  }
  return { ...move, to: first };
}
