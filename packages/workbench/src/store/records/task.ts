import type {
  ChecksBaseline,
  FollowedMergeRequest,
  InitProgress,
  PlanVersion,
  PrdLinkError,
  SubmitResult,
  TaskImage,
  TaskImageInfo,
  TaskReview,
  Todo,
  TodoOrigin,
  Workspace,
} from '@keel/protocol/workbench';
import type { TaskState as SpecState } from '@keel/protocol/workbench/names';

export type { PlanVersion, TaskImage, TaskImageInfo, Todo, TodoOrigin };

/**
 * A task's state: one of the spec's task states, or a state a registered stage adds (a stage module
 * beyond the five; see the README's "Adding a stage"). Open on the wire too (`taskState` of the protocol).
 * The flow (tasks/states.ts) calls it FlowState.
 */
export type TaskState = SpecState | (string & {});

export interface Task {
  id: string;
  project_id: string;
  description: string;
  prd_links: string[];
  images: TaskImage[];
  runner: string | null;
  branch: string;
  state: TaskState;
  cancelled_from: TaskState | null;
  init: InitProgress;
  workspaces: Workspace[];
  plan_session_id: string | null;
  review_session_id: string | null;
  init_session_id: string | null;
  commit_message: string | null;
  /** The MR's title and description as the user edited them in review (null: from the commit message). */
  mr_title: string | null;
  mr_description: string | null;
  results: SubmitResult[] | null;
  /** The PRD links the latest first plan draft could not read (it was written without them); [] when all were read. */
  prd_link_errors: PrdLinkError[];
  /** The reviewer's findings on the change (null until the task first reaches review). */
  review: TaskReview | null;
  /** The submitted merge requests, followed until merged or closed (null before submit). */
  merge_requests: FollowedMergeRequest[] | null;
  /** The checks on the workspace before the todos changed it (null until the first todo runs). */
  baseline: ChecksBaseline | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** A task as `list` reads it: its images' sizes, not their data (megabytes each). */
export type ListedTask = Omit<Task, 'images'> & { images: TaskImageInfo[] };

export type NewTask = Pick<
  Task,
  'id' | 'project_id' | 'description' | 'prd_links' | 'images' | 'runner' | 'branch'
>;

export type TaskPatch = Partial<
  Omit<
    Task,
    | 'id'
    | 'project_id'
    | 'state'
    | 'cancelled_from'
    | 'created_at'
    | 'updated_at'
    // A task's stage sessions are written with `setSession`.
    | 'plan_session_id'
    | 'review_session_id'
    | 'init_session_id'
  >
>;

export type NewTodo = { title: string; description: string; expected_output: string; origin?: TodoOrigin };
export type TodoPatch = Partial<Omit<Todo, 'id' | 'task_id' | 'created_at' | 'updated_at'>>;

/** The tasks with their todos, stage sessions (task, stage) → session, and plan versions. */
export interface TaskRecords {
  /** A new task, CREATED (its id chosen by the caller: the task directory is made first). */
  create(input: NewTask): Promise<Task>;
  /** Oldest first (created_at, then id), only the project's when given; images as their sizes only. */
  list(projectId?: string): Promise<ListedTask[]>;
  /** Throws 404 TASK_NOT_FOUND. */
  get(id: string): Promise<Task>;
  exists(id: string): Promise<boolean>;
  /** Sets the fields of `patch` (images with their sizes) and updated_at; TASK_NOT_FOUND for an unknown id. */
  update(id: string, patch: TaskPatch): Promise<Task>;
  /**
   * Moves the task in one atomic step: reads it, asks `next` for the state it goes to (`next` throws to
   * refuse), and writes that state (`cancelled_from` is the old state when it goes to CANCELLED, else null).
   * Answers the task as it is after; unchanged when `next` answers its state.
   */
  move(id: string, next: (task: Task) => TaskState): Promise<{ task: Task; moved: boolean }>;
  /** Deletes the task with its todos, stage sessions and plan versions (a no-op for an unknown id). */
  remove(id: string): Promise<void>;

  /** The task's session of a stage (by the stage's key), or null. */
  sessionOf(taskId: string, stage: string): Promise<string | null>;
  /** Records the task's session of a stage (replacing the one it had); touches the task's updated_at. */
  setSession(taskId: string, stage: string, sessionId: string): Promise<Task>;

  /** By position (1, 2, …). */
  todos(taskId: string): Promise<Todo[]>;
  /** Throws 404 TODO_NOT_FOUND. */
  todo(id: string): Promise<Todo>;
  /** Replaces every todo of the task by `items` (pending, in that order), in one transaction. */
  replaceTodos(taskId: string, items: NewTodo[]): Promise<Todo[]>;
  updateTodo(id: string, patch: TodoPatch): Promise<Todo>;
  /** Inserts a pending todo at `position` (1-based, default the end), moving the later ones down. */
  insertTodo(taskId: string, item: NewTodo, position?: number): Promise<Todo>;
  /** Removes a todo (TODO_NOT_FOUND); the later ones move up. */
  removeTodo(id: string): Promise<void>;
  /** Puts the task's todos in the order of `ids` (every todo of the task, once). */
  reorderTodos(taskId: string, ids: string[]): Promise<Todo[]>;

  /** Oldest first. */
  planVersions(taskId: string): Promise<PlanVersion[]>;
  /** Throws 404 PLAN_VERSION_NOT_FOUND. */
  planVersion(taskId: string, version: number): Promise<PlanVersion>;
  /** Stores the next version (1, 2, …). */
  addPlanVersion(
    taskId: string,
    content: string,
    source: PlanVersion['source'],
    sessionId: string | null,
  ): Promise<PlanVersion>;

  /** Crash repair: todos, init steps and baselines left running fail. Answers the tasks it changed. */
  failInterrupted(): Promise<Task[]>;
}
