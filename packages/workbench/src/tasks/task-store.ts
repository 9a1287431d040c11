import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import { redactCredentials } from '../git/index.ts';
import { type Database, fromJson, nowIso } from '../store/index.ts';
import type { Flow, TaskState } from './states.ts';
import type { PlanVersion, Task, TaskImage, TaskImageInfo, Todo, TodoOrigin, Workspace } from './types.ts';

/** A task as `list` reads it: its images' sizes, not their data (megabytes each). */
export type ListedTask = Omit<Task, 'images'> & { images: TaskImageInfo[] };

type Row = Record<string, unknown>;
const jsonColumns = new Set([
  'prd_link_errors',
  'prd_links',
  'images',
  'image_info',
  'init',
  'workspaces',
  'results',
  'before',
  'after',
  'checks',
  'review',
  'merge_requests',
  'origin',
]);

/** A task's sessions by stage key, as `task_sessions` holds them. */
type StageSessions = ReadonlyMap<string, string>;
const noSessions: StageSessions = new Map();

function toTask(row: Row, sessions: StageSessions): Task {
  return { ...toListedTask(row, sessions), images: fromJson(row.images, []) };
}

function toListedTask(row: Row, sessions: StageSessions): Omit<Task, 'images'> {
  return {
    id: row.id as string,
    project_id: row.project_id as string,
    description: row.description as string,
    prd_links: fromJson(row.prd_links, []),
    runner: (row.runner as string | null) ?? null,
    branch: row.branch as string,
    state: row.state as TaskState,
    cancelled_from: (row.cancelled_from as TaskState | null) ?? null,
    init: fromJson(row.init, { status: 'idle', steps: [] }),
    // Rows written before remote URLs were redacted may still hold credentials: never returned.
    workspaces: fromJson<Workspace[]>(row.workspaces, []).map((workspace) => ({
      ...workspace,
      origin_url: workspace.origin_url ? redactCredentials(workspace.origin_url) : null,
    })),
    // The spec's fields, read from the (task, stage) → session relation (the old columns are not read).
    plan_session_id: sessions.get('plan') ?? null,
    review_session_id: sessions.get('review') ?? null,
    init_session_id: sessions.get('init') ?? null,
    commit_message: (row.commit_message as string | null) ?? null,
    mr_title: (row.mr_title as string | null) ?? null,
    mr_description: (row.mr_description as string | null) ?? null,
    results: fromJson(row.results, null),
    prd_link_errors: fromJson(row.prd_link_errors, []),
    review: fromJson(row.review, null),
    merge_requests: fromJson(row.merge_requests, null),
    error: (row.error as string | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

function toTodo(row: Row): Todo {
  return {
    id: row.id as string,
    task_id: row.task_id as string,
    position: Number(row.position),
    title: row.title as string,
    description: row.description as string,
    expected_output: row.expected_output as string,
    status: row.status as Todo['status'],
    session_id: (row.session_id as string | null) ?? null,
    before: fromJson(row.before, null),
    after: fromJson(row.after, null),
    checks: fromJson(row.checks, null),
    origin: fromJson(row.origin, { kind: 'plan' }),
    error: (row.error as string | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

/** What lists and views show of a task's images, kept beside them so that a list never reads the images. */
export function imageInfoOf(images: TaskImage[]): TaskImageInfo[] {
  return images.map((image) => ({
    media_type: image.media_type,
    ...(image.filename ? { filename: image.filename } : {}),
    bytes: Buffer.byteLength(image.data, 'base64'),
  }));
}

function assignments(patch: Record<string, unknown>): { sql: string; values: (string | number | null)[] } {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  const images = patch.images as TaskImage[] | undefined;
  const withInfo = images ? { ...patch, image_info: imageInfoOf(images) } : patch;
  for (const [key, value] of Object.entries(withInfo)) {
    if (value === undefined) continue;
    columns.push(`${key} = ?`);
    values.push(
      jsonColumns.has(key) && value !== null ? JSON.stringify(value) : (value as string | number | null),
    );
  }
  columns.push('updated_at = ?');
  values.push(nowIso());
  return { sql: columns.join(', '), values };
}

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

/**
 * The tasks, todos and task_sessions tables. The state column is written only by `move`, through the table
 * of moves of `flow` (a store made without one reads but refuses to move).
 */
export class TaskStore {
  readonly #db: Database;
  readonly #flow: Flow | undefined;
  #columns: string[] | undefined;
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
    const row = this.#db
      .prepare('SELECT session_id FROM task_sessions WHERE task_id = ? AND stage = ?')
      .get(taskId, stage) as { session_id: string } | undefined;
    return row?.session_id ?? null;
  }

  /** Records the task's session of a stage (replacing the one it had). */
  setSession(taskId: string, stage: string, sessionId: string): Task {
    this.#db
      .prepare(
        `INSERT INTO task_sessions (task_id, stage, session_id, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (task_id, stage) DO UPDATE SET session_id = excluded.session_id`,
      )
      .run(taskId, stage, sessionId, nowIso());
    return this.update(taskId, {});
  }

  /** The stage sessions of one task, of a project's tasks, or of every task, by task. */
  #stageSessions(of: { task: string } | { project?: string | undefined }): Map<string, StageSessions> {
    const select = 'SELECT s.task_id, s.stage, s.session_id FROM task_sessions s';
    const rows = (
      'task' in of
        ? this.#db.prepare(`${select} WHERE s.task_id = ?`).all(of.task)
        : of.project !== undefined
          ? this.#db
              .prepare(`${select} JOIN tasks t ON t.id = s.task_id WHERE t.project_id = ?`)
              .all(of.project)
          : this.#db.prepare(select).all()
    ) as { task_id: string; stage: string; session_id: string }[];
    const byTask = new Map<string, Map<string, string>>();
    for (const row of rows) {
      const sessions = byTask.get(row.task_id) ?? new Map<string, string>();
      sessions.set(row.stage, row.session_id);
      byTask.set(row.task_id, sessions);
    }
    return byTask;
  }

  create(
    input: Pick<Task, 'id' | 'project_id' | 'description' | 'prd_links' | 'images' | 'runner' | 'branch'>,
  ): Task {
    const now = nowIso();
    this.#db
      .prepare(
        `INSERT INTO tasks (id, project_id, description, prd_links, images, image_info, runner, branch, state, init, workspaces, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'CREATED', ?, '[]', ?, ?)`,
      )
      .run(
        input.id,
        input.project_id,
        input.description,
        JSON.stringify(input.prd_links),
        JSON.stringify(input.images),
        JSON.stringify(imageInfoOf(input.images)),
        input.runner,
        input.branch,
        JSON.stringify({ status: 'idle', steps: [] }),
        now,
        now,
      );
    return this.get(input.id);
  }

  newId(): string {
    return newId('task');
  }

  /**
   * The tasks, oldest first. Images come as what they are and their sizes (`image_info`, written with
   * them): listing twenty tasks with a few megabytes of images each must not read them all (it took the
   * service to 1.4 GB).
   */
  list(projectId?: string): ListedTask[] {
    const select = `SELECT ${this.#columnsBut('images')} FROM tasks`;
    const rows = projectId
      ? this.#db.prepare(`${select} WHERE project_id = ? ORDER BY created_at, id`).all(projectId)
      : this.#db.prepare(`${select} ORDER BY created_at, id`).all();
    const sessions = this.#stageSessions({ project: projectId });
    return (rows as Row[]).map((row) => ({
      ...toListedTask(row, sessions.get(row.id as string) ?? noSessions),
      images: fromJson<TaskImageInfo[]>(row.image_info, []),
    }));
  }

  /** The tasks table's columns but `skipped`, as a select list (read once: migrations are done by then). */
  #columnsBut(skipped: string): string {
    this.#columns ??= (this.#db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).map(
      (column) => column.name,
    );
    return this.#columns
      .filter((name) => name !== skipped)
      .map((name) => `"${name}"`)
      .join(', ');
  }

  get(id: string): Task {
    const row = this.#db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new WorkbenchError('TASK_NOT_FOUND', `No task '${id}'.`, { task_id: id });
    return toTask(row, this.#stageSessions({ task: id }).get(id) ?? noSessions);
  }

  exists(id: string): boolean {
    return this.#db.prepare('SELECT 1 FROM tasks WHERE id = ?').get(id) !== undefined;
  }

  update(id: string, patch: TaskPatch): Task {
    const { sql, values } = assignments(patch);
    this.#db.prepare(`UPDATE tasks SET ${sql} WHERE id = ?`).run(...values, id);
    return this.#changed(this.get(id));
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
    const task = this.get(id);
    const to = this.#nextState(task, action);
    if (to === task.state) return task;
    const cancelledFrom = to === 'CANCELLED' ? task.state : null;
    this.#db
      .prepare('UPDATE tasks SET state = ?, cancelled_from = ?, updated_at = ? WHERE id = ?')
      .run(to, cancelledFrom, nowIso(), id);
    return this.#changed(this.get(id));
  }

  /** Checks that `action` is allowed now, without moving (for work that moves only when it ends). */
  check(id: string, action: string): Task {
    const task = this.get(id);
    this.#nextState(task, action);
    return task;
  }

  remove(id: string): void {
    this.#db.prepare('DELETE FROM tasks WHERE id = ?').run(id);
  }

  todos(taskId: string): Todo[] {
    return (
      this.#db.prepare('SELECT * FROM todos WHERE task_id = ? ORDER BY position').all(taskId) as Row[]
    ).map(toTodo);
  }

  todo(id: string): Todo {
    const row = this.#db.prepare('SELECT * FROM todos WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new WorkbenchError('TODO_NOT_FOUND', `No todo '${id}'.`, { todo_id: id });
    return toTodo(row);
  }

  replaceTodos(
    taskId: string,
    items: { title: string; description: string; expected_output: string }[],
  ): Todo[] {
    const now = nowIso();
    this.#db.exec('BEGIN IMMEDIATE;');
    try {
      this.#db.prepare('DELETE FROM todos WHERE task_id = ?').run(taskId);
      const insert = this.#db.prepare(
        `INSERT INTO todos (id, task_id, position, title, description, expected_output, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
      );
      items.forEach((item, index) => {
        insert.run(
          newId('todo'),
          taskId,
          index + 1,
          item.title,
          item.description,
          item.expected_output,
          now,
          now,
        );
      });
      this.#db.exec('COMMIT;');
    } catch (error) {
      this.#db.exec('ROLLBACK;');
      throw error;
    }
    return this.todos(taskId);
  }

  updateTodo(id: string, patch: Partial<Omit<Todo, 'id' | 'task_id' | 'created_at' | 'updated_at'>>): Todo {
    const { sql, values } = assignments(patch);
    this.#db.prepare(`UPDATE todos SET ${sql} WHERE id = ?`).run(...values, id);
    return this.todo(id);
  }

  /** Inserts a pending todo at `position` (1-based, default the end), moving the later ones down. */
  insertTodo(
    taskId: string,
    item: { title: string; description: string; expected_output: string; origin?: TodoOrigin },
    position?: number,
  ): Todo {
    const count = this.todos(taskId).length;
    const at = Math.min(position ?? count + 1, count + 1);
    const id = newId('todo');
    const now = nowIso();
    this.#transaction(() => {
      this.#db
        .prepare('UPDATE todos SET position = position + 1 WHERE task_id = ? AND position >= ?')
        .run(taskId, at);
      this.#db
        .prepare(
          `INSERT INTO todos (id, task_id, position, title, description, expected_output, status, origin, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
        )
        .run(
          id,
          taskId,
          at,
          item.title,
          item.description,
          item.expected_output,
          JSON.stringify(item.origin ?? { kind: 'plan' }),
          now,
          now,
        );
    });
    return this.todo(id);
  }

  /** Removes a todo; the later ones move up. */
  removeTodo(id: string): void {
    const todo = this.todo(id);
    this.#transaction(() => {
      this.#db.prepare('DELETE FROM todos WHERE id = ?').run(id);
      this.#db
        .prepare('UPDATE todos SET position = position - 1 WHERE task_id = ? AND position > ?')
        .run(todo.task_id, todo.position);
    });
  }

  /** Puts the task's todos in the order of `ids` (every todo of the task, once). */
  reorderTodos(taskId: string, ids: string[]): Todo[] {
    const now = nowIso();
    this.#transaction(() => {
      const update = this.#db.prepare(
        'UPDATE todos SET position = ?, updated_at = ? WHERE id = ? AND task_id = ?',
      );
      ids.forEach((id, index) => {
        update.run(index + 1, now, id, taskId);
      });
    });
    return this.todos(taskId);
  }

  planVersions(taskId: string): PlanVersion[] {
    return this.#db
      .prepare('SELECT * FROM plan_versions WHERE task_id = ? ORDER BY version')
      .all(taskId) as unknown as PlanVersion[];
  }

  planVersion(taskId: string, version: number): PlanVersion {
    const row = this.#db
      .prepare('SELECT * FROM plan_versions WHERE task_id = ? AND version = ?')
      .get(taskId, version) as PlanVersion | undefined;
    if (!row) {
      throw new WorkbenchError('PLAN_VERSION_NOT_FOUND', `The plan has no version ${version}.`, {
        task_id: taskId,
        version,
      });
    }
    return { ...row };
  }

  addPlanVersion(
    taskId: string,
    content: string,
    source: PlanVersion['source'],
    sessionId: string | null,
  ): PlanVersion {
    const last = this.#db
      .prepare('SELECT MAX(version) AS version FROM plan_versions WHERE task_id = ?')
      .get(taskId) as { version: number | null };
    const version = (last.version ?? 0) + 1;
    this.#db
      .prepare(
        'INSERT INTO plan_versions (task_id, version, content, source, session_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(taskId, version, content, source, sessionId, nowIso());
    return this.planVersion(taskId, version);
  }

  #transaction(work: () => void): void {
    this.#db.exec('BEGIN IMMEDIATE;');
    try {
      work();
      this.#db.exec('COMMIT;');
    } catch (error) {
      this.#db.exec('ROLLBACK;');
      throw error;
    }
  }

  /** Crash repair: todos and init steps left running failed (a retry restores the before-snapshot). */
  failInterrupted(): void {
    const now = nowIso();
    this.#db
      .prepare(
        `UPDATE todos SET status = 'failed', error = 'interrupted: the workbench stopped; execute it again', updated_at = ? WHERE status = 'running'`,
      )
      .run(now);
    for (const task of (
      this.#db.prepare(`SELECT * FROM tasks WHERE init LIKE '%"running"%'`).all() as Row[]
    ).map((row) => toTask(row, noSessions))) {
      const steps = task.init.steps.map((step) =>
        step.status === 'running' || step.status === 'pending'
          ? { ...step, status: 'failed' as const, error: 'interrupted' }
          : step,
      );
      this.update(task.id, { init: { status: 'failed', steps } });
    }
  }
}
