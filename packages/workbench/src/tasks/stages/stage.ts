import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RunnerOutcome } from '../../runners/index.ts';
import type { SessionKind, SessionRecord } from '../../sessions/index.ts';
import type { TaskDeps } from '../deps.ts';
import type { FlowState, Move } from '../states.ts';

/**
 * One stage of the task flow as a module: what the stepper shows (number, key, title, states), its rows of
 * the table of moves, its endpoints, its session and prompts, and what happens when a turn of a session it
 * handles ends. The registry (`defaultStages` in `./index.ts`) lists them in order; the table of moves,
 * `GET /api/flow` and the service's wiring are built from it (README: "Adding a stage").
 */
export interface StageModule {
  /** Two digits, as the spec numbers the stages ('01'…'05'). */
  number: string;
  /** Stable name: the SPA's view of the stage is chosen by it, and the task's session of the stage is kept under it. */
  key: string;
  title: string;
  /** The task states that belong to the stage, in order. */
  states: readonly FlowState[];
  /** States of `states` where a task has ended (no cancel), e.g. DONE. */
  final?: readonly FlowState[];
  /** The stage's rows of the table of moves. */
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
   * After every turn of a session of `kind` (a stage may handle another stage's session: 03 reads the turns
   * of 02's session). Handlers of one kind run in registry order; each checks the task's state itself.
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
