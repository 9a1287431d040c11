import { type TaskState as SpecState, taskStates } from '@keel/protocol/workbench/names';
import { WorkbenchError } from '../errors.ts';
import type { StageModule } from './stages/stage.ts';

/** The task states of spec section 3, and CANCELLED (the workbench's addition, see the decision record). */
export { taskStates };

/**
 * A state of the flow: one of the spec's task states, or a state a registered stage adds (a stage module
 * beyond the five; see the README's "Adding a stage"). Open on the wire too (`taskState` of the protocol).
 */
export type FlowState = SpecState | (string & {});

/** A task's state: a state of its flow (the table of moves writes only states of the registry). */
export type TaskState = FlowState;

export interface Move {
  /** The action's name; `user` actions have an endpoint, `system` ones follow from finished work. */
  action: string;
  by: 'user' | 'system';
  from: readonly FlowState[];
  /**
   * The state after the move; 'previous' is the state the task was cancelled from, 'same' no change, and
   * 'next' the first state of the following stage in the registry (a stage's hand-off: resolved when the
   * flow is built, so the table served and checked names the state).
   */
  to: FlowState | 'previous' | 'same' | 'next';
  /** What triggers it. */
  trigger: string;
}

/** A stage as `GET /api/flow` serves it (the stepper's source). */
export interface FlowStage {
  number: string;
  key: string;
  title: string;
  states: FlowState[];
}

/**
 * The flow built from a registry of stage modules (`stages/index.ts`, `defaultStages`): the stages in order,
 * every state, and THE table of task moves. Every change of a task's state is one row of `moves`
 * (Tasks.move is the only writer of the state column). Moves within a state (retry, refine, run a todo)
 * are rows too, so that an action in the wrong state is refused by the same check. Nothing moves a task back
 * a stage but `follow_up`, which the user asks for explicitly: it appends todos (earlier ones stay done) and
 * the task goes through coding and review again on the same branch, updating the same merge request
 * (decision record 2026-11-27-review-and-merge-request-follow-up). Otherwise a stage is redone only through
 * cancel and re-open, which return to the same state.
 */
export interface Flow {
  /** The registered modules, in order. */
  readonly modules: readonly StageModule[];
  readonly stages: readonly FlowStage[];
  /** The spec's task states, then the states registered stages add, in stage order. */
  readonly states: readonly FlowState[];
  /** The stages' rows in stage order ('next' resolved), then cancel and re-open (which every stage shares). */
  readonly moves: readonly Move[];
  /** The registered stage a state belongs to (none for CANCELLED). */
  stageOf(state: FlowState): StageModule | undefined;
  /** The actions allowed from a state, in table order. */
  allowedActions(state: FlowState): string[];
  /** The state `action` leads to from `state`, or 409 INVALID_STATE with `{state, action, allowed}`. */
  nextState(state: FlowState, action: string, cancelledFrom: FlowState | null): FlowState;
  /** Whether `action` is allowed from `state` (no error). */
  canMove(state: FlowState, action: string): boolean;
}

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
