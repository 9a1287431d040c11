import { RecordNotFoundError } from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type {
  NewProject,
  NewTask,
  Project,
  ProjectChange,
  ProjectQuery,
  Task,
  TaskChange,
} from '@keel/runtime/store/contract';
import { limitOf } from './approval-queries.ts';
import type { Database } from './database.ts';
import { json } from './database.ts';

// Projects and their development tasks (the web API's /api/projects and /api/tasks).

interface ProjectRow {
  id: string;
  name: string;
  description: string;
  workdir: string;
  code_paths: string[];
  session_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface TaskRow {
  id: string;
  project_id: string;
  name: string;
  branch_name: string;
  session_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const projectColumns = 'id, name, description, workdir, code_paths, session_id, created_at, updated_at';
const taskColumns = 'id, project_id, name, branch_name, session_id, created_at, updated_at';

function tables(db: Database): { projects: string; tasks: string } {
  return { projects: `${db.t.schema}.projects`, tasks: `${db.t.schema}.project_tasks` };
}

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    workdir: row.workdir,
    code_paths: row.code_paths,
    session_id: row.session_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    branch_name: row.branch_name,
    session_id: row.session_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const projectNotFound = (id: string) => new RecordNotFoundError('PROJECT_NOT_FOUND', 'Project', id);
const taskNotFound = (id: string) => new RecordNotFoundError('TASK_NOT_FOUND', 'Task', id);

export async function createProject(db: Database, input: NewProject): Promise<Project> {
  const row = await db.row<ProjectRow>(
    `INSERT INTO ${tables(db).projects} (id, name, description, workdir, code_paths, session_id)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     RETURNING ${projectColumns}`,
    [newId('prj'), input.name, input.description, input.workdir, json(input.code_paths), input.session_id],
  );
  return toProject(row!);
}

export async function getProject(db: Database, id: string): Promise<Project> {
  const row = await db.row<ProjectRow>(`SELECT ${projectColumns} FROM ${tables(db).projects} WHERE id = $1`, [
    id,
  ]);
  if (!row) throw projectNotFound(id);
  return toProject(row);
}

export async function listProjects(db: Database, query: ProjectQuery = {}): Promise<Project[]> {
  // `before` pages by the cursor's insertion order; an id the store does not know pages by id.
  const { projects } = tables(db);
  const rows = await db.rows<ProjectRow>(
    `SELECT p.id, p.name, p.description, p.workdir, p.code_paths, p.session_id, p.created_at, p.updated_at
     FROM ${projects} p LEFT JOIN ${projects} b ON b.id = $1
     WHERE $1::text IS NULL OR (b.ord IS NOT NULL AND p.ord < b.ord) OR (b.ord IS NULL AND p.id < $1)
     ORDER BY p.ord DESC LIMIT $2`,
    [query.before ?? null, limitOf(query.limit, 50)],
  );
  return rows.map(toProject);
}

export async function updateProject(db: Database, id: string, change: ProjectChange): Promise<Project> {
  // A NULL parameter keeps the column as it is.
  const row = await db.row<ProjectRow>(
    `UPDATE ${tables(db).projects} SET name = coalesce($2, name), description = coalesce($3, description),
       workdir = coalesce($4, workdir), code_paths = coalesce($5::jsonb, code_paths), updated_at = now()
     WHERE id = $1
     RETURNING ${projectColumns}`,
    [
      id,
      change.name ?? null,
      change.description ?? null,
      change.workdir ?? null,
      change.code_paths ? json(change.code_paths) : null,
    ],
  );
  if (!row) throw projectNotFound(id);
  return toProject(row);
}

export async function deleteProject(db: Database, id: string): Promise<void> {
  // The tasks go with it (ON DELETE CASCADE).
  const rows = await db.rows<{ id: string }>(
    `DELETE FROM ${tables(db).projects} WHERE id = $1 RETURNING id`,
    [id],
  );
  if (rows.length === 0) throw projectNotFound(id);
}

export async function createTask(db: Database, input: NewTask): Promise<Task> {
  // Inserting through a SELECT on projects checks the project exists in the same statement.
  const { projects, tasks } = tables(db);
  const row = await db.row<TaskRow>(
    `INSERT INTO ${tasks} (id, project_id, name, branch_name, session_id)
     SELECT $1, id, $3, $4, $5 FROM ${projects} WHERE id = $2
     RETURNING ${taskColumns}`,
    [newId('tsk'), input.project_id, input.name, input.branch_name, input.session_id],
  );
  if (!row) throw projectNotFound(input.project_id);
  return toTask(row);
}

export async function getTask(db: Database, id: string): Promise<Task> {
  const row = await db.row<TaskRow>(`SELECT ${taskColumns} FROM ${tables(db).tasks} WHERE id = $1`, [id]);
  if (!row) throw taskNotFound(id);
  return toTask(row);
}

export async function listTasks(db: Database, projectId: string, query: ProjectQuery = {}): Promise<Task[]> {
  const { tasks } = tables(db);
  const rows = await db.rows<TaskRow>(
    `SELECT t.id, t.project_id, t.name, t.branch_name, t.session_id, t.created_at, t.updated_at
     FROM ${tasks} t LEFT JOIN ${tasks} b ON b.id = $2
     WHERE t.project_id = $1
       AND ($2::text IS NULL OR (b.ord IS NOT NULL AND t.ord < b.ord) OR (b.ord IS NULL AND t.id < $2))
     ORDER BY t.ord DESC LIMIT $3`,
    [projectId, query.before ?? null, limitOf(query.limit, 50)],
  );
  if (rows.length === 0) await getProject(db, projectId);
  return rows.map(toTask);
}

export async function updateTask(db: Database, id: string, change: TaskChange): Promise<Task> {
  const row = await db.row<TaskRow>(
    `UPDATE ${tables(db).tasks} SET name = coalesce($2, name), branch_name = coalesce($3, branch_name),
       updated_at = now()
     WHERE id = $1
     RETURNING ${taskColumns}`,
    [id, change.name ?? null, change.branch_name ?? null],
  );
  if (!row) throw taskNotFound(id);
  return toTask(row);
}

export async function deleteTask(db: Database, id: string): Promise<void> {
  const rows = await db.rows<{ id: string }>(`DELETE FROM ${tables(db).tasks} WHERE id = $1 RETURNING id`, [
    id,
  ]);
  if (rows.length === 0) throw taskNotFound(id);
}
