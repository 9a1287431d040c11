import { newId } from '@keel/runtime/store';
import type {
  ListedTask,
  NewTask,
  NewTodo,
  PlanVersion,
  TaskPatch,
  TaskRecords,
  TaskState,
  Todo,
  TodoPatch,
} from '../store/index.ts';
import type { Task } from './types.ts';

export type { ListedTask, TaskPatch } from '../store/index.ts';
export { imageInfoOf } from '../store/index.ts';

/**
 * What moving a task asks of the flow: its table's next state (a `Flow`, states.ts, is one). Named here, not
 * imported: the flow holds the stage modules, which are given these tasks, and imports must not go round.
 */
export interface FlowMoves {
  nextState(state: TaskState, action: string, cancelledFrom: TaskState | null): TaskState;
}

/**
 * The tasks as the stages see them: the store contract's task records (`store.tasks`), with two things
 * added. The state is written only by `move`, through the table of moves of `flow` (without one, tasks can
 * be read but not moved), and every change of a task's row is told to `onChange` (the WebSocket's
 * `task:{id}` channel).
 */
export class Tasks {
  readonly #records: TaskRecords;
  readonly #flow: FlowMoves | undefined;
  /** Per (task, stage): the stage session being found or made, so two requests agree on one. */
  readonly #making = new Map<string, Promise<string>>();
  /** Per task: the read-modify-write in progress (`change`), which the next one waits for. */
  readonly #changing = new Map<string, Promise<unknown>>();
  /** Told of every change of a task's row (the WebSocket's `task:{id}` channel). */
  onChange: ((task: Task) => void) | undefined;
  /** Told of every change of a todo by `updateTodo` (the service log's failures). */
  onTodoChange: ((todo: Todo) => void) | undefined;

  constructor(records: TaskRecords, flow?: FlowMoves) {
    this.#records = records;
    this.#flow = flow;
  }

  #nextState(task: Task, action: string): TaskState {
    if (!this.#flow) throw new Error('These tasks were made without a flow: they cannot be moved.');
    return this.#flow.nextState(task.state, action, task.cancelled_from);
  }

  #changed(task: Task): Task {
    try {
      this.onChange?.(task);
    } catch {
      // a listener's failure is not the store's
    }
    return task;
  }

  newId(): string {
    return newId('task');
  }

  create(input: NewTask): Promise<Task> {
    return this.#records.create(input);
  }

  /** The tasks, oldest first; images as their sizes only (a list never reads the images). */
  list(projectId?: string): Promise<ListedTask[]> {
    return this.#records.list(projectId);
  }

  get(id: string): Promise<Task> {
    return this.#records.get(id);
  }

  exists(id: string): Promise<boolean> {
    return this.#records.exists(id);
  }

  async update(id: string, patch: TaskPatch): Promise<Task> {
    return this.#changed(await this.#records.update(id, patch));
  }

  /**
   * Reads the task and writes what `patch` makes of it (nothing when it answers undefined), with no other
   * `change` of the task in between: a field holding a list or an object is rewritten whole, and two
   * writers would lose one's part.
   */
  async change(id: string, patch: (task: Task) => TaskPatch | undefined): Promise<Task> {
    const before = this.#changing.get(id) ?? Promise.resolve();
    const mine = before
      .catch(() => undefined)
      .then(async () => {
        const task = await this.get(id);
        const changes = patch(task);
        return changes ? this.update(id, changes) : task;
      });
    this.#changing.set(id, mine);
    try {
      return await mine;
    } finally {
      if (this.#changing.get(id) === mine) this.#changing.delete(id);
    }
  }

  /** Checks `action` against the table of moves and, when allowed, writes the state it leads to. */
  async move(id: string, action: string): Promise<Task> {
    return (await this.moveFrom(id, action)).task;
  }

  /** `move`, answering also the state the task moved from (read in the same atomic step). */
  async moveFrom(id: string, action: string): Promise<{ task: Task; from: TaskState }> {
    let from: TaskState = 'CREATED';
    const { task, moved } = await this.#records.move(id, (current) => {
      from = current.state;
      return this.#nextState(current, action);
    });
    return { task: moved ? this.#changed(task) : task, from };
  }

  /** Checks that `action` is allowed now, without moving (for work that moves only when it ends). */
  async check(id: string, action: string): Promise<Task> {
    const task = await this.get(id);
    this.#nextState(task, action);
    return task;
  }

  remove(id: string): Promise<void> {
    return this.#records.remove(id);
  }

  /** The task's session of a stage (by the stage's key), or null. */
  sessionOf(taskId: string, stage: string): Promise<string | null> {
    return this.#records.sessionOf(taskId, stage);
  }

  /**
   * The task's session of a stage, made by `create` and recorded when the task has none yet. Requests
   * for the same task and stage take turns here, so they find one session, never make two.
   */
  async stageSession(taskId: string, stage: string, create: () => Promise<string>): Promise<string> {
    const key = `${taskId}\u0000${stage}`;
    const before = this.#making.get(key) ?? Promise.resolve('');
    const mine = before
      .catch(() => '')
      .then(async () => {
        const existing = await this.#records.sessionOf(taskId, stage);
        if (existing) return existing;
        const id = await create();
        this.#changed(await this.#records.setSession(taskId, stage, id));
        return id;
      });
    this.#making.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.#making.get(key) === mine) this.#making.delete(key);
    }
  }

  /** Records the task's session of a stage (replacing the one it had). */
  async setSession(taskId: string, stage: string, sessionId: string): Promise<Task> {
    return this.#changed(await this.#records.setSession(taskId, stage, sessionId));
  }

  todos(taskId: string): Promise<Todo[]> {
    return this.#records.todos(taskId);
  }

  todo(id: string): Promise<Todo> {
    return this.#records.todo(id);
  }

  replaceTodos(taskId: string, items: NewTodo[]): Promise<Todo[]> {
    return this.#records.replaceTodos(taskId, items);
  }

  async updateTodo(id: string, patch: TodoPatch): Promise<Todo> {
    const todo = await this.#records.updateTodo(id, patch);
    try {
      this.onTodoChange?.(todo);
    } catch {
      // a listener's failure is not the store's
    }
    return todo;
  }

  /** Inserts a pending todo at `position` (1-based, default the end), moving the later ones down. */
  insertTodo(taskId: string, item: NewTodo, position?: number): Promise<Todo> {
    return this.#records.insertTodo(taskId, item, position);
  }

  /** Removes a todo; the later ones move up. */
  removeTodo(id: string): Promise<void> {
    return this.#records.removeTodo(id);
  }

  /** Puts the task's todos in the order of `ids` (every todo of the task, once). */
  reorderTodos(taskId: string, ids: string[]): Promise<Todo[]> {
    return this.#records.reorderTodos(taskId, ids);
  }

  planVersions(taskId: string): Promise<PlanVersion[]> {
    return this.#records.planVersions(taskId);
  }

  planVersion(taskId: string, version: number): Promise<PlanVersion> {
    return this.#records.planVersion(taskId, version);
  }

  addPlanVersion(
    taskId: string,
    content: string,
    source: PlanVersion['source'],
    sessionId: string | null,
  ): Promise<PlanVersion> {
    return this.#records.addPlanVersion(taskId, content, source, sessionId);
  }

  /** Crash repair: todos and init steps left running failed (a retry restores the before-snapshot). */
  async failInterrupted(): Promise<void> {
    for (const task of await this.#records.failInterrupted()) this.#changed(task);
  }
}
