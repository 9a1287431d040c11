import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { RecordNotFoundError } from '../../errors/index.ts';
import type {
  NewProject,
  NewTask,
  Project,
  ProjectChange,
  ProjectQuery,
  Task,
  TaskChange,
} from '../contract.ts';
import { immediate, type SqliteContext, stamp } from './context.ts';
import { prepareStatement } from './prepare-statement.ts';
import type { Row } from './rows.ts';

// Projects and their development tasks on SQLite. Their statements are prepared here, on first use per
// connection, rather than with the run statements: they are off the runs' hot paths.

const sql = {
  insertProject: `INSERT INTO projects (id, name, description, workdir, code_paths, session_id, created_at,
                    updated_at)
                  VALUES ($id, $name, $description, $workdir, $code_paths, $session_id, $now, $now)
                  RETURNING *`,
  getProject: 'SELECT * FROM projects WHERE id = $id',
  listProjects: `SELECT * FROM projects WHERE ($before IS NULL OR id < $before)
                 ORDER BY id DESC LIMIT $limit`,
  // A NULL parameter keeps the column as it is.
  updateProject: `UPDATE projects SET name = coalesce($name, name),
                    description = coalesce($description, description), workdir = coalesce($workdir, workdir),
                    code_paths = coalesce($code_paths, code_paths), updated_at = $now
                  WHERE id = $id
                  RETURNING *`,
  deleteProjectTasks: 'DELETE FROM project_tasks WHERE project_id = $id',
  deleteProject: 'DELETE FROM projects WHERE id = $id',
  // Inserting through a SELECT on projects checks the project exists in the same statement.
  insertTask: `INSERT INTO project_tasks (id, project_id, name, branch_name, session_id, created_at, updated_at)
               SELECT $id, id, $name, $branch_name, $session_id, $now, $now FROM projects WHERE id = $project_id
               RETURNING *`,
  getTask: 'SELECT * FROM project_tasks WHERE id = $id',
  listTasks: `SELECT * FROM project_tasks
              WHERE project_id = $project_id AND ($before IS NULL OR id < $before)
              ORDER BY id DESC LIMIT $limit`,
  updateTask: `UPDATE project_tasks SET name = coalesce($name, name),
                 branch_name = coalesce($branch_name, branch_name), updated_at = $now
               WHERE id = $id
               RETURNING *`,
  deleteTask: 'DELETE FROM project_tasks WHERE id = $id',
} as const;

type Statements = { readonly [K in keyof typeof sql]: StatementSync };

const prepared = new WeakMap<DatabaseSync, Statements>();

function statements(ctx: SqliteContext): Statements {
  let each = prepared.get(ctx.db);
  if (!each) {
    const made: Partial<Record<keyof typeof sql, StatementSync>> = {};
    for (const key of Object.keys(sql) as (keyof typeof sql)[])
      made[key] = prepareStatement(ctx.db, sql[key]);
    each = made as Statements;
    prepared.set(ctx.db, each);
  }
  return each;
}

function toProject(row: Row): Project {
  return {
    id: row.id as string,
    name: row.name as string,
    description: row.description as string,
    workdir: row.workdir as string,
    code_paths: JSON.parse(row.code_paths as string) as string[],
    session_id: (row.session_id as string | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

function toTask(row: Row): Task {
  return {
    id: row.id as string,
    project_id: row.project_id as string,
    name: row.name as string,
    branch_name: row.branch_name as string,
    session_id: (row.session_id as string | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

const projectNotFound = (id: string) => new RecordNotFoundError('PROJECT_NOT_FOUND', 'Project', id);
const taskNotFound = (id: string) => new RecordNotFoundError('TASK_NOT_FOUND', 'Task', id);

export function createProject(ctx: SqliteContext, input: NewProject): Project {
  const { now, id } = stamp(ctx, 'prj');
  const row = statements(ctx).insertProject.get({
    id,
    name: input.name,
    description: input.description,
    workdir: input.workdir,
    code_paths: JSON.stringify(input.code_paths),
    session_id: input.session_id,
    now,
  }) as Row;
  return toProject(row);
}

export function getProject(ctx: SqliteContext, id: string): Project {
  const row = statements(ctx).getProject.get({ id }) as Row | undefined;
  if (!row) throw projectNotFound(id);
  return toProject(row);
}

export function listProjects(ctx: SqliteContext, query: ProjectQuery): Project[] {
  const rows = statements(ctx).listProjects.all({
    before: query.before ?? null,
    limit: query.limit ?? 50,
  }) as Row[];
  return rows.map(toProject);
}

export function updateProject(ctx: SqliteContext, id: string, change: ProjectChange): Project {
  const row = statements(ctx).updateProject.get({
    id,
    name: change.name ?? null,
    description: change.description ?? null,
    workdir: change.workdir ?? null,
    code_paths: change.code_paths ? JSON.stringify(change.code_paths) : null,
    now: ctx.now().toISOString(),
  }) as Row | undefined;
  if (!row) throw projectNotFound(id);
  return toProject(row);
}

export function deleteProject(ctx: SqliteContext, id: string): void {
  // The tasks go in the same transaction, whether or not the connection enforces foreign keys.
  immediate(ctx, () => {
    statements(ctx).deleteProjectTasks.run({ id });
    if (statements(ctx).deleteProject.run({ id }).changes === 0) throw projectNotFound(id);
  });
}

export function createTask(ctx: SqliteContext, input: NewTask): Task {
  const { now, id } = stamp(ctx, 'tsk');
  const row = statements(ctx).insertTask.get({
    id,
    project_id: input.project_id,
    name: input.name,
    branch_name: input.branch_name,
    session_id: input.session_id,
    now,
  }) as Row | undefined;
  if (!row) throw projectNotFound(input.project_id);
  return toTask(row);
}

export function getTask(ctx: SqliteContext, id: string): Task {
  const row = statements(ctx).getTask.get({ id }) as Row | undefined;
  if (!row) throw taskNotFound(id);
  return toTask(row);
}

export function listTasks(ctx: SqliteContext, projectId: string, query: ProjectQuery): Task[] {
  const rows = statements(ctx).listTasks.all({
    project_id: projectId,
    before: query.before ?? null,
    limit: query.limit ?? 50,
  }) as Row[];
  if (rows.length === 0) getProject(ctx, projectId);
  return rows.map(toTask);
}

export function updateTask(ctx: SqliteContext, id: string, change: TaskChange): Task {
  const row = statements(ctx).updateTask.get({
    id,
    name: change.name ?? null,
    branch_name: change.branch_name ?? null,
    now: ctx.now().toISOString(),
  }) as Row | undefined;
  if (!row) throw taskNotFound(id);
  return toTask(row);
}

export function deleteTask(ctx: SqliteContext, id: string): void {
  if (statements(ctx).deleteTask.run({ id }).changes === 0) throw taskNotFound(id);
}
