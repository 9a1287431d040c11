import { newId } from '@keel/runtime/store';
import {
  type Database,
  type ListedTask,
  type NewTask,
  type NewTodo,
  type TaskPatch,
  type TodoPatch,
  taskQueries as tasks,
  todoQueries as todos,
} from '../store/index.ts';
import type { Flow, TaskState } from './states.ts';
import type { PlanVersion, Task, Todo } from './types.ts';

export type { ListedTask, TaskPatch } from '../store/index.ts';
export { imageInfoOf } from '../store/index.ts';

/**
 * The tasks, todos, task_sessions and plan_versions tables, synchronously: a transitional face over the
 * SQLite dialect's queries for the stage modules, not yet moved to the async `WorkbenchStore` contract
 * (`store.tasks`). The state column is written only by `move`, through the table of moves of `flow` (a
 * store made without one reads but refuses to move).
 */
export class TaskStore {
  readonly #db: Database;
  readonly #flow: Flow | undefined;
  /** Told of every change of a task's row (the WebSocket's `task:{id}` channel). */
  onChange: ((task: Task) => void) | undefined;

  constructor(db: Database, flow?: Flow) {
    this.#db = db;
    this.#flow = flow;
  }

  #nextState(task: Task, action: string): TaskState {
    if (!this.#flow) throw new Error('This task store was made without a flow: it cannot move tasks.');
    return this.#flow.nextState(task.state, action, task.cancelled_from);
  }

  /** The task's session of a stage (by the stage's key), or null. */
  sessionOf(taskId: string, stage: string): string | null {
    return tasks.sessionOf(this.#db, taskId, stage);
  }

  /** Records the task's session of a stage (replacing the one it had). */
  setSession(taskId: string, stage: string, sessionId: string): Task {
    return this.#changed(tasks.setSession(this.#db, taskId, stage, sessionId));
  }

  create(input: NewTask): Task {
    return tasks.createTask(this.#db, input);
  }

  newId(): string {
    return newId('task');
  }

  /** The tasks, oldest first; images as their sizes only (a list never reads the images). */
  list(projectId?: string): ListedTask[] {
    return tasks.listTasks(this.#db, projectId);
  }

  get(id: string): Task {
    return tasks.getTask(this.#db, id);
  }

  exists(id: string): boolean {
    return tasks.taskExists(this.#db, id);
  }

  update(id: string, patch: TaskPatch): Task {
    return this.#changed(tasks.updateTask(this.#db, id, patch));
  }

  #changed(task: Task): Task {
    try {
      this.onChange?.(task);
    } catch {
      // a listener's failure is not the store's
    }
    return task;
  }

  /** Checks `action` against the table of moves and, when allowed, writes the state it leads to. */
  move(id: string, action: string): Task {
    const { task, moved } = tasks.moveTask(this.#db, id, (current) => this.#nextState(current, action));
    return moved ? this.#changed(task) : task;
  }

  /** Checks that `action` is allowed now, without moving (for work that moves only when it ends). */
  check(id: string, action: string): Task {
    const task = this.get(id);
    this.#nextState(task, action);
    return task;
  }

  remove(id: string): void {
    tasks.removeTask(this.#db, id);
  }

  todos(taskId: string): Todo[] {
    return todos.listTodos(this.#db, taskId);
  }

  todo(id: string): Todo {
    return todos.getTodo(this.#db, id);
  }

  replaceTodos(taskId: string, items: NewTodo[]): Todo[] {
    return todos.replaceTodos(this.#db, taskId, items);
  }

  updateTodo(id: string, patch: TodoPatch): Todo {
    return todos.updateTodo(this.#db, id, patch);
  }

  /** Inserts a pending todo at `position` (1-based, default the end), moving the later ones down. */
  insertTodo(taskId: string, item: NewTodo, position?: number): Todo {
    return todos.insertTodo(this.#db, taskId, item, position);
  }

  /** Removes a todo; the later ones move up. */
  removeTodo(id: string): void {
    todos.removeTodo(this.#db, id);
  }

  /** Puts the task's todos in the order of `ids` (every todo of the task, once). */
  reorderTodos(taskId: string, ids: string[]): Todo[] {
    return todos.reorderTodos(this.#db, taskId, ids);
  }

  planVersions(taskId: string): PlanVersion[] {
    return todos.planVersions(this.#db, taskId);
  }

  planVersion(taskId: string, version: number): PlanVersion {
    return todos.planVersion(this.#db, taskId, version);
  }

  addPlanVersion(
    taskId: string,
    content: string,
    source: PlanVersion['source'],
    sessionId: string | null,
  ): PlanVersion {
    return todos.addPlanVersion(this.#db, taskId, content, source, sessionId);
  }

  /** Crash repair: todos and init steps left running failed (a retry restores the before-snapshot). */
  failInterrupted(): void {
    for (const task of tasks.failInterruptedTasks(this.#db)) this.#changed(task);
  }
}
