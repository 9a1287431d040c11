import { type TaskState, taskStates } from '@keel/protocol/workbench/names';
import { WorkbenchError } from '../errors.ts';
import type { StageModule } from './stages/stage.ts';

/** The task states of spec section 3, and CANCELLED (the workbench's addition, see the decision record). */
export { type TaskState, taskStates };

/**
 * A state of the flow: one of the spec's task states, or a state a registered stage adds (a stage module
 * beyond the five; see the README's "Adding a stage"). The task record keeps the spec's closed list.
 */
export type FlowState = TaskState | (string & {});

export interface Move {
  /** The action's name; `user` actions have an endpoint, `system` ones follow from finished work. */
  action: string;
  by: 'user' | 'system';
  from: readonly FlowState[];
  /** The state after the move; 'previous' is the state the task was cancelled from, 'same' no change. */
  to: FlowState | 'previous' | 'same';
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
  /** The stages' rows in stage order, then cancel and re-open (which every stage shares). */
  readonly moves: readonly Move[];
  /** The actions allowed from a state, in table order. */
  allowedActions(state: FlowState): string[];
  /** The state `action` leads to from `state`, or 409 INVALID_STATE with `{state, action, allowed}`. */
  nextState(state: FlowState, action: string, cancelledFrom: FlowState | null): TaskState;
  /** Whether `action` is allowed from `state` (no error). */
  canMove(state: FlowState, action: string): boolean;
}

/** Builds the flow from the registry: the table is the stages' rows, then cancel and re-open. */
export function buildFlow(modules: readonly StageModule[]): Flow {
  const keys = new Set<string>();
  for (const stage of modules) {
    if (keys.has(stage.key)) throw new Error(`Two stages of the flow have the key '${stage.key}'.`);
    keys.add(stage.key);
  }
  const staged = modules.flatMap((stage) => stage.states);
  // Every state a task works in can be cancelled; a stage's final states (DONE) cannot.
  const final = new Set(modules.flatMap((stage) => stage.final ?? []));
  const active = staged.filter((state) => !final.has(state));
  const moves: Move[] = [
    ...modules.flatMap((stage) => stage.moves),
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
    stages: modules.map(({ number, key, title, states }) => ({ number, key, title, states: [...states] })),
    states: [...new Set<FlowState>([...taskStates, ...staged])],
    moves,
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
      // A state a registered stage added is written as it is: the task record's schema then refuses it
      // until the protocol's list of task states names it (the spec's closed list is the contract).
      if (move.to === 'same') return state as TaskState;
      if (move.to !== 'previous') return move.to as TaskState;
      return (cancelledFrom ?? 'CREATED') as TaskState;
    },
    canMove(state, action) {
      return moves.some((move) => move.action === action && move.from.includes(state));
    },
  };
}
