import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Background } from '../../background.ts';
import type { CommandRunner } from '../../checks/index.ts';
import type { WorkbenchPaths } from '../../config.ts';
import type { KnowledgeService, RepositoryTrust } from '../../projects/index.ts';
import type { RunnerOutcome } from '../../runners/index.ts';
import type {
  Reservation,
  SessionKind,
  SessionRecord,
  SessionRunner,
  Sessions,
} from '../../sessions/index.ts';
import type { SettingsService } from '../../settings/index.ts';
import type { SetupRunner } from '../../setup/index.ts';
import type { SkillService } from '../../skills/index.ts';
import type { ProjectRecords, TaskState } from '../../store/index.ts';
import type { MergeRequestFollower } from '../merge-request-follower.ts';
import type { TaskLocks } from '../task-locks.ts';
import type { Tasks } from '../tasks.ts';
import type { Task } from '../types.ts';

// A stage module, the task deps it is given and the flow built from the modules refer to each other, so
// they are declared in this one file (deps.ts and states.ts re-export theirs): no import goes in a circle.

/** What the stages of the flow share. */
export interface TaskDeps {
  store: Tasks;
  projects: ProjectRecords;
  /** The trust decision for repositories' `.runtime/config.json`: refreshed when a task is created. */
  trust: RepositoryTrust;
  knowledge: KnowledgeService;
  skills: SkillService;
  settings: SettingsService;
  runner: SessionRunner;
  sessions: Sessions;
  background: Background;
  paths: WorkbenchPaths;
  /** Tasks with work in progress that is not a session (init steps, run-all, submit): one at a time. */
  busy: TaskLocks;
  /** Runs the repositories' checks after a todo. */
  commands: CommandRunner;
  /** Runs the repositories' setup (install) commands during init: sandboxed, the network on. */
  setup: SetupRunner;
  /** Follows submitted merge requests to their end. */
  mergeRequests: MergeRequestFollower;
  /** The flow built from the registered stages: the table of moves every action is checked against. */
  flow: Flow;
  /** The task's previews (running dev servers): stopped by its delete, before its workspaces go. */
  previews?: { stopTask(taskId: string): Promise<void> };
}

/**
 * A state of the flow: one of the spec's task states, or a state a registered stage adds (a stage module
 * beyond the five; see the README's "Adding a stage"). Open on the wire too (`taskState` of the protocol).
 * A task's record holds one (store/records/task.ts, where the type lives: the store imports no area).
 */
export type FlowState = TaskState;

/** A task's state: a state of its flow (the table of moves writes only states of the registry). */
export type { TaskState };

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
