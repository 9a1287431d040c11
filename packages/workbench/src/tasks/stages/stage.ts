import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RunnerOutcome } from '../../runners/index.ts';
import type { Reservation, SessionKind, SessionRecord } from '../../sessions/index.ts';
import type { TaskDeps } from '../deps.ts';
import type { FlowState, Move } from '../states.ts';
import type { Task } from '../types.ts';

/** How a task came into a stage: the move, the state it left, and a session the leaving stage held for it. */
export interface StageEntry {
  action: string;
  from: FlowState;
  /**
   * A session the leaving stage reserved before the move (02 holds the plan session for 03, so that no chat
   * turn slips in between). The entered stage's `onEnter` owns it: it runs a turn in it or releases it.
   */
  held?: Reservation;
}

/**
 * One stage of the task flow as a module: what the stepper shows (key, title, states), its rows of the table
 * of moves, its endpoints, its session and prompts, what happens when a task enters it and when a turn of a
 * session it handles ends. The registry (`defaultStages` in `./index.ts`, or `createWorkbench({stages})`)
 * lists them in order; the stages' numbers, the table of moves, `GET /api/flow` and the service's wiring are
 * built from it, and the flow (`moveTask` in `../hand-off.ts`) runs the hand-offs: no stage imports another
 * (README: "Adding a stage").
 */
export interface StageModule {
  /** Stable name: the SPA's view of the stage is chosen by it, and the task's session of the stage is kept under it. */
  key: string;
  title: string;
  /** The task states that belong to the stage, in order. */
  states: readonly FlowState[];
  /** States of `states` where a task has ended (no cancel), e.g. DONE. */
  final?: readonly FlowState[];
  /**
   * The stage's rows of the table of moves. A row whose `to` is `'next'` is the stage it offers next: the
   * first state of the following stage in the registry (resolved when the flow is built).
   */
  moves: readonly Move[];
  /** The stage's endpoints (registered in registry order, after the task routes). */
  routes?: (deps: TaskDeps) => FastifyPluginAsyncZod;
  /**
   * The kind of the session the stage keeps for a task in `task_sessions` under its key (the task answer's
   * `<key>_session_id` for the spec's stages), if it keeps one.
   */
  session?: SessionKind;
  /** The stage's prompt builders (for reading and tests; the stage's code calls them directly). */
  prompts?: Readonly<Record<string, (...args: never[]) => string>>;
  /**
   * What the stage starts when a task moves into it from another stage (`moveTask` calls it after the
   * move): 02 drafts the plan, 03 breaks it into todos, 05 runs the reviewer. Its failure reaches the
   * caller of the move unless it notes it on the task itself (`startAutomatically`).
   */
  onEnter?(deps: TaskDeps, task: Task, entry: StageEntry): Promise<void>;
  /**
   * After the repositories' setup ran again successfully while the task is in the stage (04 takes the
   * checks' baseline again).
   */
  onSetup?(deps: TaskDeps, task: Task): Promise<void>;
  /**
   * After every turn of a session of `kind` (a stage may handle another stage's session: 03 reads the turns
   * of 02's session). Handlers of one kind run in registry order; each checks the task's state itself, and
   * one that finishes the stage moves the task on with `moveTask` (which enters the next stage).
   */
  turnEnded?: {
    kind: SessionKind;
    handle(deps: TaskDeps, session: SessionRecord, outcome: RunnerOutcome): Promise<void>;
  };
  /**
   * How a chat message in a session of `kind` becomes its turn's prompt, sent now or queued behind a turn
   * (the same framing as the stage's endpoint). Undefined: the message as typed. Framers of one kind are
   * asked in registry order; the first answer counts.
   */
  chatFramed?: {
    kind: SessionKind;
    frame(deps: TaskDeps, session: SessionRecord, content: string): Promise<string | undefined>;
  };
}
